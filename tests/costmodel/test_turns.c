/*
 * test_turns.c — the log of the vCPUs' turns behind the plugin's
 * turns=PATH (turns.h): a line only when the vCPU changes, the first note
 * always, the format "VCPU PC INSNS" with the address in lowercase hex,
 * a path that cannot be written refused, and closing NULL harmless.
 */
#include "check.h"
#include "turns.h"

/* A fresh temporary file's name in path (the log reopens it). */
static bool temp_path(char *path, size_t len)
{
	snprintf(path, len, "/tmp/test_turns.XXXXXX");
	int fd = mkstemp(path);
	if (fd < 0)
		return false;
	close(fd);
	return true;
}

/* The whole file, in text (at most len - 1 bytes). */
static void slurp(const char *path, char *text, size_t len)
{
	FILE *f = fopen(path, "r");
	size_t n = f ? fread(text, 1, len - 1, f) : 0;
	text[n] = '\0';
	if (f)
		fclose(f);
}

TEST(only_changes_of_vcpu_are_written)
{
	char path[64], text[512];
	CHECK(temp_path(path, sizeof path));
	struct cm_turns *t = cm_turns_open(path);
	CHECK(t);
	cm_turns_note(t, 0, 0xFFF0, 0);                      /* the first: written */
	cm_turns_note(t, 0, 0xe05b, 7);
	cm_turns_note(t, 2, 0xffffffff80101a2cull, 123);
	cm_turns_note(t, 2, 0xffffffff80101a40ull, 130);
	cm_turns_note(t, 2, 0xffffffff80101a50ull, 140);
	cm_turns_note(t, 0, 0xffffffff80200000ull, 18446744073709551615ull);
	cm_turns_note(t, 1, 0x401000, 5);
	cm_turns_close(t);
	slurp(path, text, sizeof text);
	unlink(path);
	CHECK_STR(text, "0 fff0 0\n"
			"2 ffffffff80101a2c 123\n"
			"0 ffffffff80200000 18446744073709551615\n"
			"1 401000 5\n");
}

TEST(no_notes_no_lines)
{
	char path[64], text[64];
	CHECK(temp_path(path, sizeof path));
	struct cm_turns *t = cm_turns_open(path);
	CHECK(t);
	cm_turns_close(t);
	slurp(path, text, sizeof text);
	unlink(path);
	CHECK_STR(text, "");
}

TEST(a_path_that_cannot_be_written_is_refused)
{
	CHECK_PTR(cm_turns_open("/nonexistent-dir/x.turns"), NULL);
	cm_turns_close(NULL);                                /* nothing to close: no crash */
}
