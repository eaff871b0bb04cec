/*
 * test_options.c — kernel/boot/options.c, the kernel options checked at boot.
 *
 * Proves: every known option takes the values it documents and refuses the
 * wrong ones the issue names (tick=0, slice=-1, drvproc=nosuch,
 * serialise=maybe) and their neighbours (out of range, signs, empty,
 * units); an unknown key is refused; the refusal is one line naming the
 * option, its value and what is allowed; a line cut at the buffer or with
 * words dropped is refused before any option; a line of good options, or
 * none, passes.
 */
#include "check.h"
#include <cmdline.h>
#include <options.h>

/* The kernel's drivers that run as processes, as kernel/drivers/driver.c would list them. */
const char *options_drvproc_driver(int i)
{
	static const char *const names[] = { "rtl8139", "e1000", "ramdisk", "ahci" };
	return i >= 0 && i < 4 ? names[i] : NULL;
}

static char why[OPTIONS_WHY_MAX];

/* options_check of "build/hako.elf TEXT -- hello": 0 or -EINVAL, why filled. */
static int check_line(const char *text)
{
	static struct cmdline cl;
	char line[1200];
	snprintf(line, sizeof line, "build/hako.elf %s -- hello", text);
	cmdline_parse(&cl, line);
	why[0] = 0;
	return options_check(&cl, why, sizeof why);
}

static bool ok(const char *text) { return check_line(text) == 0; }

TEST(no_options_pass)
{
	CHECK(ok(""));
	CHECK_EQ(why[0], 0);
}

TEST(good_options_pass)
{
	CHECK(ok("tick=10ms tick=100us tick=1s tick=2000000 slice=1 slice=9"));
	CHECK(ok("irqtrace=on irqtrace=off lockcheck=on serialise=off serialise=on"));
	CHECK(ok("console=vga console=serial ispc=fast ispc=baseline iop=1 iop=3 iop=15"));
	CHECK(ok("drvproc=all drvproc=none drvproc=rtl8139 drvproc=rtl8139,e1000 drvproc=e1000"));
	CHECK(ok("servers= servers=nameserver,echo,ramdisk,ispcbench servers=drv-e1000"));
}

TEST(tick_refused_out_of_range)
{
	CHECK(!ok("tick=0"));
	CHECK_STR(why, "kernel option tick=0 refused (allowed: a duration from 100us to 1s, e.g. 10ms)");
	CHECK(!ok("tick=99us"));
	CHECK(!ok("tick=2s"));
	CHECK(!ok("tick=-5ms"));
	CHECK(!ok("tick=10 ms"));            /* "ms" is a word of its own: 10 ns */
	CHECK(!ok("tick=fast"));
	CHECK(!ok("tick="));
}

TEST(slice_refused_out_of_range)
{
	CHECK(!ok("slice=-1"));
	CHECK_STR(why, "kernel option slice=-1 refused (allowed: 1..9 ticks)");
	CHECK(!ok("slice=0"));
	CHECK(!ok("slice=10"));
	CHECK(!ok("slice=3x"));
	CHECK(!ok("slice="));
}

TEST(on_off_and_named_values_refused)
{
	CHECK(!ok("serialise=maybe"));
	CHECK_STR(why, "kernel option serialise=maybe refused (allowed: on or off)");
	CHECK(ok("fastpath=on fastpath=off"));
	CHECK(!ok("fastpath=1"));
	CHECK_STR(why, "kernel option fastpath=1 refused (allowed: on or off)");
	CHECK(ok("drvswitch=on drvswitch=off"));
	CHECK(!ok("drvswitch=yes"));
	CHECK_STR(why, "kernel option drvswitch=yes refused (allowed: on or off)");
	CHECK(ok("semdirect=on semdirect=off"));
	CHECK(!ok("semdirect=direct"));
	CHECK_STR(why, "kernel option semdirect=direct refused (allowed: on or off)");
	CHECK(ok("drvmode=user drvmode=super"));
	CHECK(!ok("drvmode=ring0"));
	CHECK_STR(why, "kernel option drvmode=ring0 refused (allowed: user or super)");
	CHECK(ok("isoch=rm isoch=table"));
	CHECK(!ok("isoch=edf"));
	CHECK_STR(why, "kernel option isoch=edf refused (allowed: rm or table)");
	CHECK(!ok("irqtrace=1"));
	CHECK(!ok("lockcheck="));
	CHECK(!ok("console=hdmi"));
	CHECK_STR(why, "kernel option console=hdmi refused (allowed: serial or vga)");
	CHECK(!ok("ispc=slow"));
	CHECK(!ok("ispc=FAST"));
}

TEST(iop_refused_out_of_range)
{
	CHECK(!ok("iop=0"));
	CHECK_STR(why, "kernel option iop=0 refused (allowed: a CPU 1..15 other than the boot CPU)");
	CHECK(!ok("iop=16"));
	CHECK(!ok("iop=99"));
	CHECK(!ok("iop=99999999999999999999"));
	CHECK(!ok("iop=-1"));
	CHECK(!ok("iop=03"));
	CHECK(!ok("iop="));
}

TEST(drvproc_refuses_unknown_drivers)
{
	CHECK(!ok("drvproc=nosuch"));
	CHECK_STR(why, "kernel option drvproc=nosuch refused (allowed: all (the network drivers), "
		       "none, or drivers joined by commas: rtl8139,e1000,ramdisk,ahci)");
	CHECK(!ok("drvproc=rtl8139,nosuch"));
	CHECK(!ok("drvproc=rtl8139,"));
	CHECK(!ok("drvproc=,e1000"));
	CHECK(!ok("drvproc=rtl"));            /* a prefix is no name */
	CHECK(!ok("drvproc=e1000e"));
	CHECK(!ok("drvproc="));
}

TEST(servers_refuses_bad_names)
{
	CHECK(!ok("servers=a,,b"));
	CHECK(!ok("servers=echo,"));
	CHECK(!ok("servers=ec/ho"));
	CHECK(!ok("servers=averyveryveryverylongprogramname0"));   /* HAKO_PATH_MAX */
	char text[300] = "servers=";
	for (int i = 0; i < 30; i++)
		strcat(text, i ? ",echo0" : "echo0");   /* 179 bytes: longer than the list kept */
	CHECK(!ok(text));
}

TEST(unknown_key_refused)
{
	CHECK(!ok("tick=10ms frobnicate=1"));
	CHECK_STR(why, "kernel option frobnicate=1 refused (no such option; the options: tick slice "
		       "irqtrace lockcheck serialise console ispc iop drvproc servers fastpath drvswitch drvmode isoch semdirect)");
	CHECK(!ok("Tick=10ms"));
	CHECK(!ok("=5"));
}

TEST(first_wrong_option_named)
{
	CHECK(!ok("tick=10ms slice=0 serialise=maybe"));
	CHECK_STR(why, "kernel option slice=0 refused (allowed: 1..9 ticks)");
}

TEST(cut_line_refused)
{
	static struct cmdline cl;
	char text[sizeof cl.buf + 100];
	memset(text, 'x', sizeof text - 1);
	text[sizeof text - 1] = 0;
	memcpy(text, "tick=10ms -- ", 13);
	cmdline_parse(&cl, text);
	CHECK_EQ(options_check(&cl, why, sizeof why), -EINVAL);
	CHECK_STR(why, "kernel command line refused (longer than 1023 bytes)");
}

TEST(dropped_words_refused)
{
	char text[600] = "";
	for (int i = 0; i < CMD_MAX_WORDS + 1; i++)
		strcat(text, "tick=10ms ");
	CHECK(!ok(text));
	CHECK_STR(why, "kernel command line refused (more than 32 options or 32 words after --)");
}

TEST(refusal_fits_a_short_buffer)
{
	static struct cmdline cl;
	char small[24];
	cmdline_parse(&cl, "frobnicate=1");
	CHECK_EQ(options_check(&cl, small, sizeof small), -EINVAL);
	CHECK_EQ(strlen(small), sizeof small - 1);
	cmdline_parse(&cl, "drvproc=nosuch");
	CHECK_EQ(options_check(&cl, small, sizeof small), -EINVAL);
	CHECK_EQ(strlen(small), sizeof small - 1);
}
