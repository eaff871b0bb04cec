/*
 * tests/user/forbidden.h — the instructions of arch/x86_64/forbidden.S.
 */
#ifndef SELFTEST_FORBIDDEN_H
#define SELFTEST_FORBIDDEN_H

void do_cli(void);
void do_hlt(void);
void do_x87(void);
void do_sse(void);
void do_wrmsr(void);
void do_int3(void);
void do_ud2(void);
void do_tf_syscall(void);

#endif
