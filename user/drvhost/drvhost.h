/*
 * drvhost.h — what the parts of the driver host share (the loop in
 * user/drvhost/ and the process placement, kernel/drivers/drvenv_process.c:
 * one driver source from kernel/drivers/ linked with them becomes the
 * program drv-NAME, a driver process of paper 003).
 */
#ifndef DRVHOST_H
#define DRVHOST_H

#include <stdbool.h>
#include <hako/sys.h>

struct drv_dev;

struct drv_dev *drvhost_dev(const struct hako_drv_info *info);   /* drvenv_process.c */
void drvhost_run_timers(void);
bool drvhost_irq(void);          /* run the handler drv_irq_attach set; false: none */

#endif
