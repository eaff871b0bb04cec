/*
 * test_options.c — the plugin's arguments (options.h): Hako's defaults,
 * every argument into its field, a guest's own large ranges replacing the
 * direct map, and a bad or missing argument refused with what is wrong.
 */
#include <string.h>
#include "check.h"
#include "options.h"

static int parse(struct cm_options *o, char *err, const char *a0, const char *a1,
		 const char *a2, const char *a3)
{
	char *argv[] = { (char *)a0, (char *)a1, (char *)a2, (char *)a3 };
	int argc = 0;
	while (argc < 4 && argv[argc])
		argc++;
	return cm_options_parse(argc, argv, o, err, 256);
}

TEST(options_default_to_hakos_layout)
{
	struct cm_options o;
	char err[256];
	CHECK_EQ(parse(&o, err, "profile=p.profile", NULL, NULL, NULL), 0);
	CHECK(strcmp(o.profile_path, "p.profile") == 0 && o.out_path == NULL);
	CHECK(!o.show_regs && !o.l2_off && !o.pcprof && o.turns_path == NULL);
	CHECK_EQ(o.cpu_id_offset, 24);
	CHECK_EQ(o.nlarge, 1);
	CHECK_EQ(o.large[0].base, 0xffff800000000000ull);
	CHECK_EQ(o.clock_mhz, 1000);
	CHECK_EQ(o.exit_port, 0xf4);
	CHECK_EQ(o.nepoch_addrs, 0);
	CHECK_EQ(o.nrelease_addrs, 0);
	CHECK(o.handler_start == 0 && o.handler_end == 0);      /* no handler range */
}

TEST(options_fill_their_fields)
{
	struct cm_options o;
	char err[256];
	CHECK_EQ(parse(&o, err, "profile=x", "l2=off", "epoch=4014f0", "release=ffffffff80122960"), 0);
	CHECK(o.l2_off);
	CHECK_EQ(o.nepoch_addrs, 1);
	CHECK_EQ(o.epoch_addrs[0], 0x4014f0);
	CHECK_EQ(o.release_addrs[0], 0xffffffff80122960ull);
	CHECK_EQ(parse(&o, err, "profile=x", "large=1000:2000", "large=8000:10", "cpu_id_offset=0x40"), 0);
	CHECK_EQ(o.nlarge, 2);
	CHECK(o.large[0].base == 0x1000 && o.large[0].size == 0x2000);
	CHECK(o.large[1].base == 0x8000 && o.large[1].size == 0x10);
	CHECK_EQ(o.cpu_id_offset, 0x40);
	CHECK_EQ(parse(&o, err, "profile=x", "mhz=166", "exit_port=0x501", "pcprof=on"), 0);
	CHECK(o.clock_mhz == 166 && o.exit_port == 0x501 && o.pcprof);
	CHECK_EQ(parse(&o, err, "profile=x", "turns=/tmp/a.turns", NULL, NULL), 0);
	CHECK(strcmp(o.turns_path, "/tmp/a.turns") == 0);
	CHECK_EQ(parse(&o, err, "profile=x", "handler=8c800400:8c8004f2", NULL, NULL), 0);
	CHECK(o.handler_start == 0x8c800400 && o.handler_end == 0x8c8004f2);
	CHECK_EQ(parse(&o, err, "profile=x", "handler=8c800400", NULL, NULL), -1);    /* no end */
	CHECK_EQ(parse(&o, err, "profile=x", "handler=500:400", NULL, NULL), -1);     /* end first */
	CHECK_EQ(parse(&o, err, "profile=x", "handler=400:", NULL, NULL), -1);
}

TEST(options_refuse_what_they_do_not_know)
{
	struct cm_options o;
	char err[256];
	CHECK_EQ(parse(&o, err, "profile=x", "colour=blue", NULL, NULL), -1);
	CHECK(strstr(err, "bad argument 'colour=blue'") != NULL);
	CHECK_EQ(parse(&o, err, "profile=x", "large=1000", NULL, NULL), -1);      /* no size */
	CHECK_EQ(parse(&o, err, "profile=x", "mhz=0", NULL, NULL), -1);
	CHECK_EQ(parse(&o, err, "profile=x", "turns=", NULL, NULL), -1);         /* no path */
	CHECK(strstr(err, "turns=PATH") != NULL);
	CHECK_EQ(parse(&o, err, "out=o.jsonl", NULL, NULL, NULL), -1);
	CHECK(strstr(err, "profile=PATH") != NULL);
}
