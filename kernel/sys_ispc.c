/*
 * sys_ispc.c — the ICA and server-communication system calls (paper 002).
 * Placeholder while kernel/ica.c and kernel/ispc.c are written.
 */
#include <stdint.h>
#include <errno.h>

long sys_ica_alloc(uint64_t pages, uint64_t uva) { return -ENOSYS; }
long sys_ica_free(uint64_t id) { return -ENOSYS; }
long sys_ica_paste(uint64_t id) { return -ENOSYS; }
long sys_ica_peel(uint64_t id) { return -ENOSYS; }
long sys_ica_stat(uint64_t uout) { return -ENOSYS; }
long sys_ispc_listen(uint64_t flags) { return -ENOSYS; }
long sys_ispc_request(uint64_t pid, uint64_t umsg, uint64_t flags) { return -ENOSYS; }
long sys_ispc_receive(uint64_t umsg, uint64_t flags) { return -ENOSYS; }
long sys_ispc_reply(uint64_t umsg, uint64_t flags) { return -ENOSYS; }
long sys_ispc_result(uint64_t tag, uint64_t umsg, uint64_t flags) { return -ENOSYS; }
long sys_ispc_mode(uint64_t mode) { return -ENOSYS; }
