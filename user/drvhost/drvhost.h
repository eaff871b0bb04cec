/*
 * drvhost.h — what the parts of the driver host share (user/drvhost/: one
 * driver source from kernel/drivers/ linked with this host becomes the
 * program drv-NAME, a driver process of paper 003).
 */
#ifndef DRVHOST_H
#define DRVHOST_H

#include <hako/sys.h>

struct drv_dev;

struct drv_dev *drvhost_dev(const struct hako_drv_info *info);   /* drvenv_process.c */
void drvhost_run_timers(void);

#endif
