"""Command-line interface of `./hako`.

  hako boot   [options] [-- WORDS...]   boot once, collect results, exit-map
  hako shell  [options] [-- WORDS...]   interactive QEMU on this terminal
  hako summary RESULTS.jsonl            human-readable summary of results
  hako test-all [--quick|--check|--only NAME]
                                        everything `make test` runs; `make check`'s
                                        tier; one test by name (`make test T=NAME`)
  hako bench NAME                       run a registered experiment
  hako report [--no-run | --summary]    run the papers' experiments, write docs/report/
  hako history [NAME]                   a report figure across commits (results/history.jsonl)
  hako paper NNN TOOL [ARGS...]         one of a paper's table or plot tools (papers/pNNN/)

`--model PROFILE` (boot, bench) loads the cost-model plugin with that
profile and joins its regions to the result lines (model.py).

Words after a bare `--` are passed to the guest after its command line.
Exit codes of boot/bench: 0 passed, 1 guest failure, 2 usage/environment,
3 kernel panic, 4 reset/triple fault, 5 QEMU error, 6 build failure,
124 timeout, 130 interrupted.
"""
from __future__ import annotations

import argparse
import sys
from pathlib import Path

from .disks import DISKS
from .progress import Board
from .qemu import ARCHES, MACHINES, MAX_CPUS, MIN_MEM_MIB, MODES, NETS, Profile, mem_mib
from .results import load_meta, load_records
from .runner import DEFAULT_TIMEOUT, EXIT_USAGE, run_boot, run_shell
from .soak import DEFAULT_FRAMES, DEFAULT_RATE
from .summary import render_short, render_summary


def split_words(argv: list[str]) -> tuple[list[str], list[str]]:
    """Split argv at the first bare `--` into (options, guest words)."""
    if "--" in argv:
        index = argv.index("--")
        return argv[:index], argv[index + 1:]
    return argv, []


def positive_float(text: str) -> float:
    value = float(text)
    if value <= 0:
        raise argparse.ArgumentTypeError("must be positive")
    return value


def cpu_count(text: str) -> int:
    """--smp: 1 to MAX_CPUS, what the kernel brings up."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not 1 <= value <= MAX_CPUS:
        raise argparse.ArgumentTypeError(f"{value}: Hako runs on 1 to {MAX_CPUS} CPUs")
    return value


def mem_size(text: str) -> str:
    """--mem: a size QEMU takes and Hako boots in; kept as given."""
    try:
        mem_mib(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None
    return text


class Parser(argparse.ArgumentParser):
    """Usage errors in one line, before anything starts."""

    def error(self, message: str):
        self.exit(EXIT_USAGE, f"{self.prog}: {message} (`{self.prog} --help` lists the options)\n")


def positive_int(text: str) -> int:
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value


DRVPROC_DRIVERS = ("rtl8139", "e1000", "ramdisk", "ahci")


def drvproc_list(text: str) -> str:
    """--drvproc: "all", "none" or a comma list of drivers that have a driver process."""
    text = text.strip()
    if text in ("all", "none", ""):
        return text
    names = text.split(",")
    for name in names:
        if name not in DRVPROC_DRIVERS:
            raise argparse.ArgumentTypeError(
                f"{name!r}: not a driver with a process (choose from {', '.join(DRVPROC_DRIVERS)}, all)")
    return ",".join(names)


def with_drvproc(cmdline: str, drvproc: str) -> str:
    """The kernel command line with drvproc=LIST added (nothing for "" or "none")."""
    if drvproc in ("", "none"):
        return cmdline
    return f"{cmdline} drvproc={drvproc}".strip()


def add_machine_options(parser: argparse.ArgumentParser, default_mode: str) -> None:
    """Options shared by boot and shell."""
    parser.add_argument("--arch", choices=ARCHES, default="x86_64",
                        help="the arch to build and boot: x86_64, or sh4 on QEMU's r2d board "
                        "(one CPU, icount or tcg, no disks or cards)")
    parser.add_argument("--smp", type=cpu_count, default=None,
                        help=f"CPU count, 1 to {MAX_CPUS} (default 4; 1 with --arch sh4)")
    parser.add_argument("--mem", type=mem_size, default="128M",
                        help=f"guest RAM, at least {MIN_MEM_MIB}M (default 128M)")
    parser.add_argument("--machine", choices=MACHINES, default="pc")
    parser.add_argument("--mode", choices=MODES, default=default_mode,
                        help=f"execution mode (default {default_mode})")
    parser.add_argument("--disk", choices=DISKS, default="none",
                        help="disks: an AHCI disk, an NVMe disk, or both (fresh 8 MiB images)")
    parser.add_argument("--net", choices=NETS, default="none",
                        help="network cards: none, an rtl8139 and an e1000 on one QEMU hub, "
                        "or an rtl8139 fed frames from the host (dgram: a soak, boot only)")
    parser.add_argument("--cmdline", default="", help='kernel command line "k=v ..."')
    parser.add_argument("--drvproc", type=drvproc_list, default="", metavar="LIST",
                        help="drivers that run as processes (paper 003): any of "
                        "rtl8139,e1000,ramdisk,ahci, or all (the network drivers); adds "
                        "drvproc=LIST to the command line")
    parser.add_argument("--iso", action="store_true", help="boot build/hako.iso via GRUB")
    parser.add_argument("--debug-kernel", action="store_true",
                        help="boot build/debug/hako.elf, the kernel with the lock-order "
                        "check (make kernel-debug)")
    parser.add_argument("--gdb", action="store_true",
                        help="start halted with a gdb stub (see --gdb-port), no timeout")
    parser.add_argument("--gdb-port", type=positive_int, default=1234,
                        help="TCP port of the gdb stub on 127.0.0.1 (default 1234)")


def add_model_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--model", metavar="PROFILE", default="",
                        help="run the cost-model plugin with tools/costmodel/profiles/"
                        "PROFILE.profile (icount only; `make costmodel` builds it)")


def add_echo_options(parser: argparse.ArgumentParser) -> None:
    """How much of the guest's console a boot prints (a progress line shows either way)."""
    echo = parser.add_mutually_exclusive_group()
    echo.add_argument("--quiet", action="store_true", help="do not echo the console")
    echo.add_argument("--verbose", action="store_true",
                      help="echo the console's `@@ {json}` result lines too")


def add_boot_parser(subparsers) -> None:
    parser = subparsers.add_parser("boot", help="boot once and collect results")
    add_machine_options(parser, "icount")
    parser.add_argument("--timeout", type=positive_float, default=DEFAULT_TIMEOUT,
                        help=f"seconds (default {DEFAULT_TIMEOUT:g})")
    parser.add_argument("--name", help="run name (default boot-<machine>-smp<N>-<mode>)")
    add_echo_options(parser)
    parser.add_argument("--keep-log", action="store_true", help="keep the log on success")
    parser.add_argument("--soak-rate", type=positive_float, default=DEFAULT_RATE,
                        help=f"--net dgram: frames per second (default {DEFAULT_RATE:g})")
    parser.add_argument("--soak-frames", type=positive_int, default=DEFAULT_FRAMES,
                        help=f"--net dgram: frames in all (default {DEFAULT_FRAMES})")
    add_model_option(parser)


def add_shell_parser(subparsers) -> None:
    parser = subparsers.add_parser("shell", help="interactive boot on this terminal")
    add_machine_options(parser, "tcg")


def make_parser() -> argparse.ArgumentParser:
    parser = Parser(
        prog="hako", description="Host harness for the Hako microkernel.",
        epilog="Guest command words go after a bare `--`.")
    subparsers = parser.add_subparsers(dest="command", required=True)
    add_boot_parser(subparsers)
    add_shell_parser(subparsers)
    summary = subparsers.add_parser("summary", help="summarise results .jsonl files")
    summary.add_argument("paths", nargs="+", metavar="path")
    summary.add_argument("--short", action="store_true",
                         help="a few lines for each file and the report's status "
                              "(what `make run` ends with)")
    test_all = subparsers.add_parser("test-all", help="run everything `make test` runs")
    tier = test_all.add_mutually_exclusive_group()
    test_all.add_argument("-j", "--jobs", type=positive_int, default=0, metavar="N",
                          help="boots side by side (default: one per host core, as memory "
                               "allows); the results are the same for every N")
    tier.add_argument("--quick", action="store_true", help="only the pc smp 4 boot")
    tier.add_argument("--check", action="store_true", help="what `make check` runs: layout, host "
                      "tests, pytest, one ktest and one selftest boot")
    tier.add_argument("--only", default="", metavar="NAME",
                      help="one test by name (`make test T=NAME`): a ktest or selftest name, "
                      "a host test (BINARY or BINARY:CASE or CASE) or a pytest node id")
    from .bench import describe
    bench = subparsers.add_parser("bench", help="run a registered experiment",
                                  formatter_class=argparse.RawDescriptionHelpFormatter,
                                  epilog="benches:\n" + describe())
    bench.add_argument("name", help="the bench to run (listed below)")
    bench.add_argument("--arch", choices=ARCHES, default="x86_64",
                       help="run the bench's version for this arch (sh4: the bench NAME-sh4)")
    add_echo_options(bench)
    bench.add_argument("--keep-log", action="store_true", help="keep the log on success")
    bench.add_argument("--boots", type=positive_int, default=0, metavar="N",
                       help="boots of a bench that repeats them (mp-disk: 3 unless given; "
                            "harness: the first N of make test's boots)")
    add_model_option(bench)
    report = subparsers.add_parser("report", help="run the papers' experiments (icount) and "
                                   "write docs/report/ (README.md, index.html, SVG plots)")
    report.add_argument("--no-run", action="store_true",
                        help="build the report from the result files already in results/")
    report.add_argument("--summary", action="store_true",
                        help="only print where the report is and its status table, if it exists")
    report.add_argument("-j", "--jobs", type=positive_int, default=0, metavar="N",
                        help="experiments run side by side (default: one per host core, as "
                             "memory allows); the result files are the same for every N")
    history = subparsers.add_parser("history", help="how a report figure moved across commits "
                                    "(results/history.jsonl); without NAME, the names")
    history.add_argument("name", nargs="?", default=None)
    paper = subparsers.add_parser("paper", help="run one of a paper's table or plot tools "
                                  "(without NNN, the list)")
    paper.add_argument("paper", nargs="?", default="", metavar="NNN")
    paper.add_argument("tool", nargs="?", default="")
    paper.add_argument("args", nargs=argparse.REMAINDER, help="the tool's own options")
    return parser


def profile_from(args: argparse.Namespace, words: list[str]) -> Profile:
    arch = getattr(args, "arch", "x86_64")
    smp = args.smp if args.smp is not None else (1 if arch == "sh4" else 4)
    return Profile(arch=arch, machine=args.machine, smp=smp, mem=args.mem, mode=args.mode,
                   net=args.net, disk=args.disk,
                   cmdline=with_drvproc(args.cmdline, getattr(args, "drvproc", "")), words=tuple(words),
                   iso=args.iso, debug_kernel=args.debug_kernel, gdb=args.gdb, gdb_port=args.gdb_port,
                   soak_rate=getattr(args, "soak_rate", DEFAULT_RATE),
                   soak_frames=getattr(args, "soak_frames", DEFAULT_FRAMES),
                   model=getattr(args, "model", ""))


def cmd_boot(args, words) -> int:
    profile = profile_from(args, words)
    timeout = None if args.gdb else args.timeout
    with Board():
        outcome = run_boot(profile, args.name, timeout, quiet=args.quiet,
                           keep_log=args.keep_log, verbose=args.verbose)
    return outcome.exit_code


def cmd_shell(args, words) -> int:
    return run_shell(profile_from(args, words))


def load_result_file(path: Path) -> tuple[list[dict], dict | None] | str:
    """(records, meta) of a result file, or what is wrong with it."""
    if not path.is_file():
        return f"no such results file: {path}"
    records = [r for r in load_records(path) if isinstance(r.get("kind"), str)]
    if not records:
        return f"{path} is not a result file (no JSON lines with a \"kind\")"
    return records, load_meta(path)


def run_label(path: Path, meta: dict | None) -> str:
    """A run's guest command ("selftest"), else its file's name without .jsonl."""
    command = str((meta or {}).get("command", ""))
    if " -- " in command:
        words = command.split(" -- ", 1)[1].split()
        if words:
            return words[0]
    return path.name.removesuffix(".jsonl")


def cmd_summary(args, words) -> int:
    loaded = []
    for text in args.paths:
        found = load_result_file(Path(text))
        if isinstance(found, str):
            sys.stderr.write(f"hako: {found}\n")
            return EXIT_USAGE
        loaded.append((Path(text), *found))
    if args.short:
        from .paths import repo_root
        from .report import REPORT_DIR, summary
        runs = [(run_label(path, meta), path, records, meta) for path, records, meta in loaded]
        sys.stdout.write(render_short(runs, summary(repo_root() / REPORT_DIR)))
        return 0
    sys.stdout.write("\n".join(render_summary(records, meta) for _, records, meta in loaded))
    return 0


def cmd_test_all(args, words) -> int:
    from .testall import run_test_all
    return run_test_all(quick=args.quick, check=args.check, only=args.only, jobs=args.jobs)


def cmd_bench(args, words) -> int:
    from .bench import run_bench
    with Board():
        return run_bench(args.name, quiet=args.quiet, keep_log=args.keep_log,
                         model=args.model, boots=args.boots, arch=args.arch,
                         verbose=args.verbose)


def cmd_report(args, words) -> int:
    from .paths import repo_root
    from .report import REPORT_DIR, run_report, summary
    root = repo_root()
    if args.summary:
        sys.stdout.write(summary(root / REPORT_DIR) or
                         f"report: none yet ({REPORT_DIR}/README.md); `make report` makes it\n")
        return 0
    return run_report(root, run=not args.no_run, jobs=args.jobs)


def cmd_history(args, words) -> int:
    from .history import show
    from .paths import repo_root
    return show(repo_root(), args.name, sys.stdout)


def cmd_paper(args, words) -> int:
    from .papers import run_tool, tools
    if not args.paper:
        sys.stdout.write(f"the papers' tools (`./hako paper NNN TOOL --help`):\n{tools()}\n")
        return 0
    return run_tool(args.paper, args.tool, args.args)


COMMANDS = {
    "boot": cmd_boot,
    "shell": cmd_shell,
    "summary": cmd_summary,
    "test-all": cmd_test_all,
    "bench": cmd_bench,
    "report": cmd_report,
    "history": cmd_history,
    "paper": cmd_paper,
}

TAKES_WORDS = ("boot", "shell")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    options, words = split_words(argv)
    args = make_parser().parse_args(options)
    if words and args.command not in TAKES_WORDS:
        sys.stderr.write(f"hako: `{args.command}` takes no guest words after --\n")
        return EXIT_USAGE
    try:
        return COMMANDS[args.command](args, words)
    except KeyboardInterrupt:
        sys.stderr.write("hako: interrupted\n")
        return 130
