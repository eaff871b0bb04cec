/*
 * tools/peer/sysinfo.c — what linuxbench runs on, as result lines: the
 * kernel's release, version and command line, the CPU flags that move
 * instruction counts, where Linux keeps its CPU number (for the cost
 * model) and the state of every CPU vulnerability Linux knows.  Read
 * from /proc and /sys, which linuxbench mounts first.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>
#include "sysinfo.h"

static void print_file_line(const char *kind, const char *name, const char *path)
{
	char buf[512];
	int fd = open(path, O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof buf - 1);

	if (fd >= 0)
		close(fd);
	if (n < 0)
		n = 0;
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' '))
		n--;
	buf[n] = 0;
	for (char *p = buf; *p; p++)
		if (*p == '"' || *p == '\\' || *p < ' ')
			*p = ' ';
	printf("@@ {\"kind\":\"%s\",\"name\":\"%s\",\"value\":\"%s\"}\n", kind, name, buf);
}

/*
 * The CPU flags that move instruction counts, as Linux sees them after its
 * command line (clearcpuid=): with ERMS and FSRM Linux copies and clears
 * with `rep movsb`/`rep stosb`, which QEMU's icount counts once per byte
 * (a 4 KiB page: 4,096), where Hako's `rep stosq` counts 512; RDRAND and
 * RDSEED are the host's randomness under TCG.
 */
static void print_cpu_flags(void)
{
	static char buf[1 << 16];
	static const char *const names[] = { "erms", "fsrm", "rdrand", "rdseed", "pcid", "pti" };
	char key[16], value[128] = "";
	int fd = open("/proc/cpuinfo", O_RDONLY);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof buf - 1);

	if (fd >= 0)
		close(fd);
	buf[n > 0 ? n : 0] = 0;
	char *flags = strstr(buf, "\nflags");
	char *end = flags ? strchr(flags + 1, '\n') : NULL;
	if (end)
		*end = ' ';
	if (end)
		end[1] = 0;
	for (unsigned i = 0; i < sizeof names / sizeof names[0]; i++) {
		snprintf(key, sizeof key, " %s ", names[i]);
		snprintf(value + strlen(value), sizeof value - strlen(value), "%s%s %s",
			 i ? ", " : "", names[i], flags && strstr(flags, key) ? "yes" : "no");
	}
	printf("@@ {\"kind\":\"peer-info\",\"name\":\"cpu_flags\",\"value\":\"%s\"}\n", value);
}

/*
 * The offset of the per-CPU variable cpu_number from /proc/kallsyms (x86-64
 * lists per-CPU symbols by their offset in the per-CPU area): the cost model
 * reads it through GS base to tell the CPUs apart (cpu_id_offset=).
 */
static void print_cpu_number_offset(void)
{
	char line[256];
	FILE *f = fopen("/proc/kallsyms", "r");
	unsigned long long off = 0;
	int found = 0;

	while (f && !found && fgets(line, sizeof line, f)) {
		char type, sym[128];
		if (sscanf(line, "%llx %c %127s", &off, &type, sym) == 3 && strcmp(sym, "cpu_number") == 0)
			found = 1;
	}
	if (f)
		fclose(f);
	if (found)
		printf("@@ {\"kind\":\"peer-info\",\"name\":\"cpu_number\",\"value\":\"0x%llx\"}\n", off);
}

static int cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Kernel, command line, CPUs, and every vulnerability's state, sorted. */
void print_system(void)
{
	struct utsname u;
	char path[320], *names[64];
	int n = 0;

	uname(&u);
	printf("@@ {\"kind\":\"peer-linux\",\"release\":\"%s\",\"cpus\":%ld}\n",
	       u.release, sysconf(_SC_NPROCESSORS_ONLN));
	print_file_line("peer-info", "version", "/proc/version");
	print_file_line("peer-info", "cmdline", "/proc/cmdline");
	print_cpu_flags();
	print_cpu_number_offset();
	DIR *d = opendir("/sys/devices/system/cpu/vulnerabilities");
	struct dirent *e;
	while (d && (e = readdir(d)) != NULL && n < 64)
		if (e->d_name[0] != '.')
			names[n++] = strdup(e->d_name);
	if (d)
		closedir(d);
	qsort(names, n, sizeof names[0], cmp_name);
	for (int i = 0; i < n; i++) {
		snprintf(path, sizeof path, "/sys/devices/system/cpu/vulnerabilities/%s", names[i]);
		print_file_line("peer-vuln", names[i], path);
		free(names[i]);
	}
	fflush(stdout);
}
