/*
 * test_cmdline.c — kernel/cmdline.c, the kernel command line.
 *
 * Proves: a QEMU-style line ("build/hako.elf tick=5ms -- ktest a b") gives
 * the options before "--" (words without '=' ignored) and the command after
 * it; no "--" means no command; empty and NULL text give nothing; repeated
 * keys resolve to the last; values may be empty or contain '='; words after
 * "--" are never options; spaces, tabs and newlines all separate words;
 * options and arguments are capped at CMD_MAX_WORDS and an over-long line
 * is cut at the buffer, each marked (dropped, cut) and a line that fits
 * exactly is not; parsing again starts from scratch and the input is
 * never written.  parse_duration_ns accepts s/ms/us/ns or no unit, rejects
 * everything else, and refuses values that overflow 64 bits.
 */
#include "check.h"
#include <cmdline.h>

TEST(qemu_style_line)
{
	static struct cmdline cl;
	cmdline_parse(&cl, "build/hako.elf tick=5ms -- ktest a b");
	CHECK_EQ(cl.nopts, 1);
	CHECK_STR(cl.opt_key[0], "tick");
	CHECK_STR(cl.opt_val[0], "5ms");
	CHECK_STR(cmdline_get(&cl, "tick"), "5ms");
	CHECK_EQ(cl.argc, 3);
	CHECK_STR(cl.argv[0], "ktest");
	CHECK_STR(cl.argv[1], "a");
	CHECK_STR(cl.argv[2], "b");
	CHECK_PTR(cl.argv[3], NULL);
}

TEST(no_separator_means_no_command)
{
	static struct cmdline cl;
	cmdline_parse(&cl, "build/hako.elf tick=5ms smp=4 verbose");
	CHECK_EQ(cl.nopts, 2);
	CHECK_STR(cmdline_get(&cl, "smp"), "4");
	CHECK_EQ(cl.argc, 0);
	CHECK_PTR(cmdline_get(&cl, "verbose"), NULL);
}

TEST(empty_and_null_text)
{
	static struct cmdline cl;
	cmdline_parse(&cl, "");
	CHECK_EQ(cl.nopts, 0);
	CHECK_EQ(cl.argc, 0);
	CHECK_PTR(cmdline_get(&cl, "tick"), NULL);
	cmdline_parse(&cl, NULL);
	CHECK_EQ(cl.nopts, 0);
	CHECK_EQ(cl.argc, 0);
	cmdline_parse(&cl, "   \t\n ");
	CHECK_EQ(cl.nopts, 0);
	CHECK_EQ(cl.argc, 0);
}

TEST(only_options)
{
	static struct cmdline cl;
	cmdline_parse(&cl, "a=1 b=2 c=3");
	CHECK_EQ(cl.nopts, 3);
	CHECK_STR(cmdline_get(&cl, "a"), "1");
	CHECK_STR(cmdline_get(&cl, "b"), "2");
	CHECK_STR(cmdline_get(&cl, "c"), "3");
	CHECK_EQ(cl.argc, 0);
}

TEST(only_command)
{
	static struct cmdline cl;
	cmdline_parse(&cl, "-- ktest sched");
	CHECK_EQ(cl.nopts, 0);
	CHECK_EQ(cl.argc, 2);
	CHECK_STR(cl.argv[0], "ktest");
	CHECK_STR(cl.argv[1], "sched");
	cmdline_parse(&cl, "--");
	CHECK_EQ(cl.argc, 0);
	cmdline_parse(&cl, "tick=1ms --");
	CHECK_EQ(cl.nopts, 1);
	CHECK_EQ(cl.argc, 0);
}

TEST(repeated_key_last_wins)
{
	static struct cmdline cl;
	cmdline_parse(&cl, "tick=1ms smp=2 tick=2ms -- x");
	CHECK_EQ(cl.nopts, 3);
	CHECK_STR(cmdline_get(&cl, "tick"), "2ms");
	CHECK_STR(cmdline_get(&cl, "smp"), "2");
}

TEST(keys_match_whole_words)
{
	static struct cmdline cl;
	cmdline_parse(&cl, "tick=5ms");
	CHECK_PTR(cmdline_get(&cl, "tic"), NULL);
	CHECK_PTR(cmdline_get(&cl, "ticks"), NULL);
	CHECK_PTR(cmdline_get(&cl, "TICK"), NULL);
	CHECK_PTR(cmdline_get(&cl, ""), NULL);
}

TEST(value_with_equals_and_empty_parts)
{
	static struct cmdline cl;
	cmdline_parse(&cl, "k=a=b e= =v");
	CHECK_EQ(cl.nopts, 3);
	CHECK_STR(cmdline_get(&cl, "k"), "a=b");
	CHECK_STR(cmdline_get(&cl, "e"), "");
	CHECK_STR(cmdline_get(&cl, ""), "v");
}

TEST(words_after_separator_are_arguments)
{
	static struct cmdline cl;
	cmdline_parse(&cl, "a=1 -- x=1 -- y");
	CHECK_EQ(cl.nopts, 1);
	CHECK_PTR(cmdline_get(&cl, "x"), NULL);
	CHECK_EQ(cl.argc, 3);
	CHECK_STR(cl.argv[0], "x=1");
	CHECK_STR(cl.argv[1], "--");
	CHECK_STR(cl.argv[2], "y");
}

TEST(tabs_newlines_and_runs_of_spaces)
{
	static struct cmdline cl;
	cmdline_parse(&cl, "  \t tick=5ms\n\n--\t ktest   a  \n");
	CHECK_EQ(cl.nopts, 1);
	CHECK_STR(cmdline_get(&cl, "tick"), "5ms");
	CHECK_EQ(cl.argc, 2);
	CHECK_STR(cl.argv[0], "ktest");
	CHECK_STR(cl.argv[1], "a");
}

TEST(arguments_capped)
{
	static struct cmdline cl;
	char text[512] = "--";
	for (int i = 0; i < 40; i++)
		snprintf(text + strlen(text), sizeof text - strlen(text), " w%d", i);
	cmdline_parse(&cl, text);
	CHECK_EQ(cl.argc, CMD_MAX_WORDS);
	CHECK_STR(cl.argv[0], "w0");
	CHECK_STR(cl.argv[CMD_MAX_WORDS - 1], "w31");
	CHECK(cl.dropped);
	CHECK(!cl.cut);
}

TEST(words_that_fit_are_not_dropped)
{
	static struct cmdline cl;
	char text[1024] = "build/hako.elf";
	for (int i = 0; i < CMD_MAX_WORDS; i++)
		snprintf(text + strlen(text), sizeof text - strlen(text), " k%d=%d", i, i);
	strcat(text, " --");
	for (int i = 0; i < CMD_MAX_WORDS; i++)
		snprintf(text + strlen(text), sizeof text - strlen(text), " w%d", i);
	cmdline_parse(&cl, text);
	CHECK_EQ(cl.nopts, CMD_MAX_WORDS);
	CHECK_EQ(cl.argc, CMD_MAX_WORDS);
	CHECK(!cl.dropped);
	strcat(text, " one-more");
	cmdline_parse(&cl, text);
	CHECK(cl.dropped);
}

TEST(options_capped)
{
	static struct cmdline cl;
	char text[512] = "";
	for (int i = 0; i < 40; i++)
		snprintf(text + strlen(text), sizeof text - strlen(text), "k%d=%d ", i, i);
	strcat(text, "-- run");
	cmdline_parse(&cl, text);
	CHECK_EQ(cl.nopts, CMD_MAX_WORDS);
	CHECK(cl.dropped);
	CHECK_STR(cmdline_get(&cl, "k0"), "0");
	CHECK_STR(cmdline_get(&cl, "k31"), "31");
	CHECK_PTR(cmdline_get(&cl, "k32"), NULL);
	CHECK_EQ(cl.argc, 1);
	CHECK_STR(cl.argv[0], "run");
}

TEST(long_line_cut_at_buffer)
{
	static struct cmdline cl;
	char text[sizeof cl.buf + 200];   /* longer than the buffer, whatever its size */
	memset(text, 'a', sizeof text - 1);
	text[sizeof text - 1] = 0;
	memcpy(text, "key=", 4);
	cmdline_parse(&cl, text);
	CHECK_EQ(cl.nopts, 1);
	CHECK_EQ(strlen(cmdline_get(&cl, "key")), sizeof cl.buf - 1 - 4);
	CHECK_EQ(cl.buf[sizeof cl.buf - 1], 0);
	CHECK(cl.cut);
	text[sizeof cl.buf - 1] = 0;      /* exactly the buffer's room: whole */
	cmdline_parse(&cl, text);
	CHECK(!cl.cut);
	CHECK(!cl.dropped);
}

TEST(input_untouched_and_reparse_resets)
{
	static struct cmdline cl;
	const char *text = "a=1 b=2 -- x y";
	char copy[32];
	snprintf(copy, sizeof copy, "%s", text);
	cmdline_parse(&cl, copy);
	CHECK_STR(copy, text);                  /* parsed from cl.buf */
	CHECK_EQ(cl.nopts, 2);
	cmdline_parse(&cl, "c=3");
	CHECK_EQ(cl.nopts, 1);
	CHECK_EQ(cl.argc, 0);
	CHECK_PTR(cmdline_get(&cl, "a"), NULL);
	CHECK_PTR(cl.argv[0], NULL);
}

TEST(split_words_basic)
{
	char s[] = "  a bb\tccc\n";
	char *w[8];
	CHECK_EQ(split_words(s, w, 8), 3);
	CHECK_STR(w[0], "a");
	CHECK_STR(w[1], "bb");
	CHECK_STR(w[2], "ccc");
	char e[] = " \t ";
	CHECK_EQ(split_words(e, w, 8), 0);
	char one[] = "x";
	CHECK_EQ(split_words(one, w, 0), 0);
	CHECK_EQ(split_words(one, w, 1), 1);
	CHECK_STR(w[0], "x");
}

TEST(duration_units)
{
	CHECK_EQ(parse_duration_ns("10ms"), 10000000);
	CHECK_EQ(parse_duration_ns("500us"), 500000);
	CHECK_EQ(parse_duration_ns("2s"), 2000000000);
	CHECK_EQ(parse_duration_ns("123"), 123);
	CHECK_EQ(parse_duration_ns("7ns"), 7);
	CHECK_EQ(parse_duration_ns("0"), 0);
	CHECK_EQ(parse_duration_ns("0s"), 0);
	CHECK_EQ(parse_duration_ns("007ms"), 7000000);
}

TEST(duration_rejects_bad_text)
{
	static const char *bad[] = {
		"", "x", "5m", "ms", "s", "-5ms", "+5ms", " 5ms", "5 ms", "5msx",
		"1.5s", "5MS", "5h", "10 ", "0x10",
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		if (parse_duration_ns(bad[i]) != -1) {
			check_fail(__FILE__, __LINE__, "parse_duration_ns(\"%s\") is %lld, expected -1",
				   bad[i], (long long)parse_duration_ns(bad[i]));
			return;
		}
	CHECK_EQ(parse_duration_ns(NULL), -1);
}

TEST(duration_overflow)
{
	CHECK_EQ(parse_duration_ns("9223372036s"), 9223372036000000000ll);
	CHECK_EQ(parse_duration_ns("9223372037s"), -1);
	CHECK_EQ(parse_duration_ns("9223372036854ms"), 9223372036854000000ll);
	CHECK_EQ(parse_duration_ns("9223372036855ms"), -1);
	CHECK_EQ(parse_duration_ns("9223372036854776us"), -1);
	CHECK_EQ(parse_duration_ns("9223372036854775799"), 9223372036854775799ll);
	CHECK_EQ(parse_duration_ns("99999999999999999999"), -1);
	CHECK_EQ(parse_duration_ns("18446744073709551616"), -1);
	CHECK_EQ(parse_duration_ns("100000000000000000000000000000s"), -1);
}

/*
 * split_words stops when words[] is full but does not end the last word it
 * stored: the separator after it is only zeroed by the next pass, so
 * words[max-1] runs on to the end of the line.
 */
TEST(split_words_ends_last_word_when_full)
{
	char s[] = "a b c";
	char *w[2];
	CHECK_EQ(split_words(s, w, 2), 2);
	CHECK_STR(w[0], "a");
	CHECK_STR(w[1], "b");
}
