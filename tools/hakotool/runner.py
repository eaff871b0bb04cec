"""Build, launch and supervise one QEMU boot.

`run_boot(profile, ...)` is the engine behind `./hako boot`, `bench` and
`test-all`: it builds the image (unless HAKO_NO_BUILD=1), starts QEMU in a
new session (so a timeout can kill the whole process group), streams the
serial console line by line, collects `@@ ` result lines, writes
results/<name>.jsonl and results/logs/<name>.log, and maps QEMU's exit
status (isa-debug-exit: status = (v << 1) | 1) to a harness exit code.

With `--net dgram` a soak sender (soak.py) feeds the guest's card from
the host once the guest prints its ready line.

Before the first boot the real QEMU's version is checked (qemuver.py) and
named in a banner line.  With `--model PROFILE` the cost-model plugin
rides along and, after the run, its regions are joined to the guest's
result lines into results/<name>.joined.jsonl (model.py).

`run_shell(profile)` replaces the harness with an interactive QEMU.
"""
from __future__ import annotations

import contextlib
import dataclasses
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from . import disks as guestdisks
from . import guestclock
from . import ksyms
from . import model as costmodel
from . import paths
from . import progress
from . import qemuver
from .qemu import (KVM_DEVICE, SH4_ELF, Profile, build_argv, image_path, kvm_usable,
                   make_target, make_variables, qemu_available, qemu_command, sh4_power_status,
                   write_boot_files)
from .results import ResultCollector, decode_line, result_text, write_results
from .runmeta import file_digest, real_qemu, run_meta, unit_of  # noqa: F401 (peer.py, tests)
from .soak import READY_LINE, Sender, free_port

DEFAULT_TIMEOUT = 60.0

EXIT_PASSED = 0
EXIT_GUEST_FAILED = 1
EXIT_USAGE = 2
EXIT_PANIC = 3
EXIT_RESET = 4
EXIT_QEMU = 5
EXIT_BUILD = 6
EXIT_TIMEOUT = 124
EXIT_INTERRUPTED = 130

QEMU_STATUS_MAP = {
    1: (EXIT_PASSED, "guest passed"),
    3: (EXIT_GUEST_FAILED, "guest reported failure"),
    5: (EXIT_PANIC, "kernel panic"),
    0: (EXIT_RESET, "guest reset or triple fault (no isa-debug-exit)"),
}


@dataclasses.dataclass
class BootOutcome:
    """What one boot produced; `log` is None once the log was deleted."""

    name: str
    exit_code: int
    reason: str
    qemu_status: int | None = None
    texts: list[str] = dataclasses.field(default_factory=list)
    records: list[dict] = dataclasses.field(default_factory=list)
    malformed: list[str] = dataclasses.field(default_factory=list)
    elapsed: float = 0.0
    stderr: str = ""
    jsonl: Path | None = None
    log: Path | None = None
    joined: list[dict] | None = None     # --model: records with their "model" objects
    meta: dict | None = None             # the result file's meta record (run_meta)

    @property
    def ok(self) -> bool:
        return self.exit_code == EXIT_PASSED


def map_qemu_status(status: int) -> tuple[int, str]:
    """Map QEMU's exit status to (harness exit code, reason)."""
    if status in QEMU_STATUS_MAP:
        return QEMU_STATUS_MAP[status]
    if status < 0:
        return EXIT_QEMU, f"QEMU killed by signal {-status}"
    return EXIT_QEMU, f"QEMU failed with status {status}"


def build_enabled(env: dict) -> bool:
    """Builds are skipped when HAKO_NO_BUILD=1."""
    return env.get("HAKO_NO_BUILD", "") != "1"


def run_make(root: Path, target: str, env: dict, capture: bool = False,
             variables: tuple[str, ...] = ()) -> tuple[int, str]:
    """Run `make -s [VARIABLES] TARGET` in the repo root; returns (status, output)."""
    try:
        proc = subprocess.run(["make", "-s", *variables, target], cwd=root, env=env,
                              capture_output=capture, text=True, errors="replace")
    except OSError as exc:
        return 127, f"cannot run make: {exc}"
    output = (proc.stdout or "") + (proc.stderr or "") if capture else ""
    return proc.returncode, output


def qemu_banner(profile: Profile, env: dict) -> str | None:
    """The line naming the QEMU a boot uses (None for a HAKO_QEMU stand-in)."""
    if not real_qemu(env):
        return None
    program = qemu_command(env, profile.arch)[0]
    found, _ = qemuver.check_version(qemuver.resolve(program, env))
    version = found.text if found else "unknown version"
    model = f", cost model {profile.model}" if profile.model else ""
    machine = "r2d" if profile.arch == "sh4" else profile.machine
    return (f"hako: QEMU {version} ({program}), {machine}, "
            f"{_plural(profile.smp, 'CPU')}, {profile.mode}{model}")


def check_environment(profile: Profile, env: dict) -> tuple[int, str] | None:
    """QEMU present and new enough and (for kvm mode) /dev/kvm usable;
    else (code, reason)."""
    command = qemu_command(env, profile.arch)
    if not qemu_available(command):
        return EXIT_USAGE, (f"{command[0]} not found; run `make deps` to install "
                            "QEMU and the other build dependencies")
    if real_qemu(env):
        _, problem = qemuver.check_version(qemuver.resolve(command[0], env))
        if problem:
            return EXIT_USAGE, problem
    if profile.mode == "kvm":
        usable, why = kvm_usable(env.get("HAKO_KVM_DEVICE", KVM_DEVICE))
        if not usable:
            return EXIT_USAGE, (f"KVM is not usable on this host ({why}); "
                                "use --mode icount or --mode tcg")
    return None


def prepare(profile: Profile, root: Path, env: dict, build: bool) -> tuple[int, str] | None:
    """Environment check, optional build, image check; None when ready."""
    problem = check_environment(profile, env)
    if problem:
        return problem
    if profile.model:
        if build and build_enabled(env):
            run_make(root, "costmodel", env)   # a stale plugin is rebuilt; a failure shows below
        why = costmodel.check_model(root, profile.model, profile.mode)
        if why:
            return EXIT_USAGE, why
    target = make_target(profile)
    variables = make_variables(profile)
    if build and build_enabled(env):
        status, _ = run_make(root, target, env, variables=variables)
        if status != 0:
            return EXIT_BUILD, f"build failed: make -s {' '.join(variables + (target,))} exited {status}"
    write_boot_files(profile, root)
    if not (root / image_path(profile)).is_file():
        return EXIT_BUILD, f"{image_path(profile)} not found (run make {target})"
    return None


class _Console:
    """Sink for console lines: log file, live echo, result collection."""

    def __init__(self, log_file, out, quiet: bool, watch=None, verbose: bool = False):
        self.log_file = log_file
        self.out = None if quiet else out
        self.verbose = verbose           # echo the `@@ ` result lines too
        self.collector = ResultCollector()
        self.lines = 0
        self.watch = watch
        self.last_line_at = time.monotonic()

    def silence(self) -> float:
        """Seconds since the guest last printed a line (or since the start)."""
        return time.monotonic() - self.last_line_at

    def feed(self, raw: bytes) -> None:
        line = decode_line(raw)
        self.lines += 1
        self.last_line_at = time.monotonic()
        self.log_file.write(line + "\n")
        self.collector.feed(line)
        self._echo(line)
        if self.watch is not None:
            self.watch(line)

    def _echo(self, line: str) -> None:
        if self.out is None or (not self.verbose and result_text(line) is not None):
            return
        try:
            self.out.write(line + "\n")
            self.out.flush()
        except (OSError, ValueError):
            self.out = None  # e.g. stdout closed by `| head`; keep running


def _pump_lines(stream, sink) -> None:
    for raw in iter(stream.readline, b""):
        sink(raw)


def _pump_bytes(stream, chunks: list) -> None:
    for chunk in iter(lambda: stream.read(4096), b""):
        chunks.append(chunk)


def _start_thread(target, *args) -> threading.Thread:
    thread = threading.Thread(target=target, args=args, daemon=True)
    thread.start()
    return thread


def kill_group(proc: subprocess.Popen) -> None:
    """SIGKILL the process group QEMU leads (it runs in its own session)."""
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        pass


def _raise_interrupt(signum, frame):
    raise KeyboardInterrupt


@contextlib.contextmanager
def termination_as_interrupt():
    """Treat SIGTERM/SIGHUP like Ctrl-C so QEMU's group is not orphaned."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    saved = {sig: signal.signal(sig, _raise_interrupt)
             for sig in (signal.SIGTERM, signal.SIGHUP)}
    try:
        yield
    finally:
        for sig, handler in saved.items():
            signal.signal(sig, handler)


DUMP_KEY = b"\x1c"       # Ctrl-\\: the kernel prints every CPU and thread (thread_dump.c)
DUMP_GRACE = 3.0         # seconds the dump may take to reach the log


def request_dump(proc: subprocess.Popen) -> None:
    """Ask a hung guest what it is doing before we kill it."""
    try:
        proc.stdin.write(DUMP_KEY)
        proc.stdin.flush()
    except (AttributeError, OSError, ValueError):
        return
    try:
        proc.wait(timeout=DUMP_GRACE)
    except subprocess.TimeoutExpired:
        pass


def supervise(proc: subprocess.Popen, timeout: float | None,
              at_timeout=None, budget=None) -> tuple[int, str | None]:
    """Wait for QEMU; returns (status, None) or (status, 'timeout'|'budget'|'interrupt').

    budget (guestclock.Budget), if given, is checked every POLL_SECONDS: a guest
    that ran past it ends like one that timed out.  On either, `at_timeout` is
    called first, then the guest is sent the dump key, so the kept log ends with
    where every CPU and thread was."""
    deadline = None if timeout is None else time.monotonic() + timeout
    try:
        with termination_as_interrupt():
            while True:
                left = None if deadline is None else max(0.0, deadline - time.monotonic())
                wait_for = left if budget is None else (
                    guestclock.POLL_SECONDS if left is None else min(left, guestclock.POLL_SECONDS))
                try:
                    return proc.wait(timeout=wait_for), None
                except subprocess.TimeoutExpired:
                    if deadline is not None and time.monotonic() >= deadline:
                        event = "timeout"
                        break
                    if budget is not None and budget.exceeded():
                        event = "budget"
                        break
    except KeyboardInterrupt:
        kill_group(proc)
        return proc.wait(), "interrupt"
    if at_timeout is not None:
        at_timeout()
    request_dump(proc)
    kill_group(proc)
    return proc.wait(), event


SILENT_REPORTED = 10.0   # seconds without a console line that a timeout names


def classify(status: int, event: str | None, timeout: float | None,
             console_lines: int = 1, silent: float = 0.0,
             budget_used: int = 0) -> tuple[int, str]:
    """Harness exit code and reason for a finished QEMU.

    QEMU also exits with status 1 when it fails to start (bad option,
    unloadable kernel), which is indistinguishable from "guest wrote 0";
    a status 1 with no console output at all is therefore a QEMU error.
    A timeout says when the guest went quiet: `silent` is how long it had
    printed nothing when the time ran out.
    """
    if event == "interrupt":
        return EXIT_INTERRUPTED, "interrupted"
    if event == "budget":
        quiet = ("; the guest printed nothing" if console_lines == 0 else
                 f"; the guest printed nothing for the last {silent:.0f} s"
                 if silent >= SILENT_REPORTED else "")
        return EXIT_TIMEOUT, (f"guest time limit: more than {budget_used / 1e6:,.0f} M instructions "
                              f"run (icount), the budget of a {timeout:g} s run{quiet}")
    if event == "timeout":
        if console_lines == 0:
            return EXIT_TIMEOUT, f"timeout after {timeout:g} s; the guest printed nothing"
        if silent >= SILENT_REPORTED:
            return EXIT_TIMEOUT, (f"timeout after {timeout:g} s; the guest printed "
                                  f"nothing for the last {silent:.0f} s")
        return EXIT_TIMEOUT, f"timeout after {timeout:g} s"
    if status == 1 and console_lines == 0:
        return EXIT_QEMU, "QEMU exited with status 1 before any console output"
    return map_qemu_status(status)


def spawn(argv: list[str], root: Path, env: dict) -> subprocess.Popen:
    """Start QEMU detached from our terminal and in its own session."""
    return subprocess.Popen(argv, cwd=root, env=env, stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)


def launch(argv: list[str], name: str, timeout: float | None, quiet: bool,
           root: Path, env: dict, out, watch=None, budget=None,
           verbose: bool = False) -> BootOutcome:
    """Run QEMU to completion (or timeout) and gather everything it said.

    watch, if given, sees every console line as it arrives; budget
    (guestclock.Budget) ends a run that executes more guest instructions than it
    allows, and TIMEOUT is then the host-time backstop."""
    log = paths.log_path(root, name)
    log.parent.mkdir(parents=True, exist_ok=True)
    paths.set_aside(log)
    start = time.monotonic()
    with open(log, "w", encoding="utf-8", newline="\n", buffering=1) as log_file:
        console = _Console(log_file, out, quiet, watch, verbose)
        try:
            proc = spawn(argv, root, env)
        except OSError as exc:
            return BootOutcome(name, EXIT_QEMU, f"cannot start QEMU: {exc}", log=log)
        err_chunks: list[bytes] = []
        readers = [_start_thread(_pump_lines, proc.stdout, console.feed),
                   _start_thread(_pump_bytes, proc.stderr, err_chunks)]
        quiet_at_timeout = {}

        def note_silence():
            quiet_at_timeout["lines"] = console.lines
            quiet_at_timeout["silent"] = console.silence()

        status, event = supervise(proc, timeout, note_silence, budget)
        for reader in readers:
            reader.join(timeout=5)
    nominal = timeout / guestclock.LOAD_FACTOR if budget is not None and timeout else timeout
    code, reason = classify(status, event, timeout if event != "budget" else nominal,
                            quiet_at_timeout.get("lines", console.lines),
                            quiet_at_timeout.get("silent", 0.0),
                            budget.used if budget is not None else 0)
    if event == "timeout" and budget is not None:
        reason += (f" of host time ({guestclock.LOAD_FACTOR}x the {nominal:g} s budget; "
                   f"{budget.used / 1e6:,.0f} M guest instructions run)")
    found = console.collector
    return BootOutcome(name, code, reason, qemu_status=status, texts=found.texts,
                       records=found.records, malformed=found.malformed,
                       elapsed=time.monotonic() - start,
                       stderr=b"".join(err_chunks).decode("utf-8", errors="replace"),
                       log=log)


def finish(outcome: BootOutcome, root: Path, keep_log: bool, meta: dict | None = None) -> None:
    """Write the .jsonl file (meta record first) and drop the log after a clean pass."""
    outcome.jsonl = paths.results_path(root, outcome.name)
    outcome.meta = meta
    write_results(outcome.jsonl, outcome.texts, meta)
    if outcome.ok and not keep_log and outcome.log is not None:
        outcome.log.unlink(missing_ok=True)
        outcome.log = None


def _plural(count: int, word: str) -> str:
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


def report(outcome: BootOutcome, root: Path, err) -> None:
    """Print the final one-line verdict (plus QEMU stderr when relevant)."""
    if outcome.malformed:
        err.write(f"hako: warning: ignored {_plural(len(outcome.malformed), 'malformed result line')}\n")
    if outcome.ok:
        err.write(f"hako: passed (exit 0) in {outcome.elapsed:.2f} s, "
                  f"{_plural(len(outcome.texts), 'result line')} -> "
                  f"{paths.relative(root, outcome.jsonl)}\n")
        return
    if outcome.exit_code == EXIT_QEMU and outcome.stderr.strip():
        err.write("hako: QEMU stderr:\n" + outcome.stderr.rstrip("\n") + "\n")
    where = ""
    if outcome.log is not None and outcome.log.exists():
        where = f"; serial log kept in {paths.relative(root, outcome.log)}"
    err.write(f"hako: FAILED: {outcome.reason}{where}\n")
    err.flush()


def run_boot(profile: Profile, name: str | None = None,
             timeout: float | None = DEFAULT_TIMEOUT, *, quiet: bool = False,
             keep_log: bool = False, announce: bool = True, build: bool = True,
             root: Path | None = None, env: dict | None = None,
             out=None, err=None, verbose: bool = False) -> BootOutcome:
    """Boot `profile` once; see the module docstring.

    announce=False suppresses the QEMU banner and the final verdict line (test-all prints its
    own progress lines instead).  The console is echoed to OUT unless QUIET, its `@@ `
    result lines only when VERBOSE.  Under a progress.Board (the command's) the boot has
    a progress line, and OUT and ERR print above it.
    """
    env = dict(os.environ) if env is None else env
    root = paths.repo_root(env) if root is None else Path(root)
    out = sys.stdout if out is None else out
    err = sys.stderr if err is None else err
    board = progress.current()
    if board is not None:
        out, err = board.stream(out), board.stream(err)
    name = name or profile.default_name()
    if not paths.valid_name(name):
        outcome = BootOutcome(name, EXIT_USAGE, f"invalid run name {name!r}")
    else:
        outcome = _boot(profile, name, timeout, quiet, keep_log, build, root, env, out, err,
                        announce, verbose)
    if announce:
        report(outcome, root, err)
    return outcome


def join_model(outcome: BootOutcome, profile: Profile, root: Path, err,
               epoch_names: dict[int, str] | None = None) -> None:
    """After a --model run: join the plugin's regions (and epochs, named by
    EPOCH_NAMES) to the result lines; with several models (A+B+...), each
    model's output to results/NAME.TAG.joined.jsonl too, the first's to the
    run's own joined file."""
    models = costmodel.models_of(profile.model)
    for i, model in enumerate(models):
        out_rel = profile.model_out if i == 0 else costmodel.model_out_of(profile.model_out, model)
        path = root / out_rel
        if not path.is_file():
            err.write(f"hako: warning: the cost-model plugin wrote no {out_rel}; "
                      "no modelled figures\n")
            continue
        output = costmodel.load_model(path)
        syms = []
        if output.sections:     # irqtrace=on: name the sections' sites with this build's symbols
            sym_path = ksyms.symbols_path(root, profile.debug_kernel)
            syms = ksyms.load_symbols(sym_path)
            if not syms:
                err.write(f"hako: warning: no {paths.relative(root, sym_path)}: the sections' "
                          "sites stay addresses\n")
        joined, missing = costmodel.join_records(outcome.records, output, syms, epoch_names)
        targets = [costmodel.joined_path(root, outcome.name)] if i == 0 else []
        if len(models) > 1:
            targets.append(costmodel.joined_path(root, outcome.name, model))
        if i == 0:
            outcome.joined = joined
        for target in targets:
            costmodel.write_joined(target, joined, outcome.meta)
        if missing:
            ids = ", ".join(str(i) for i in sorted(set(missing)))
            err.write(f"hako: warning: result lines name regions the plugin never saw: {ids}\n")
        err.write(f"hako: modelled figures ({model}) -> "
                  f"{', '.join(paths.relative(root, t) for t in targets)}\n")


def _boot(profile, name, timeout, quiet, keep_log, build, root, env, out, err,
          announce=True, verbose=False) -> BootOutcome:
    sender = None
    if profile.model:
        profile = dataclasses.replace(profile, model_out=costmodel.model_rel(name))
    try:
        if profile.disk != "none" and not profile.disk_images:
            profile = dataclasses.replace(
                profile, disk_images=guestdisks.make_images(root, name, profile.disk))
        if profile.net == "dgram":
            sender = Sender(profile.soak_rate, profile.soak_frames)
            profile = dataclasses.replace(profile, dgram_ports=(free_port(), sender.peer_port))
        argv = build_argv(profile, env)
    except ValueError as exc:
        if sender is not None:
            sender.stop()
        return BootOutcome(name, EXIT_USAGE, str(exc))
    try:
        return _launch_checked(profile, argv, name, timeout, quiet, keep_log, build,
                               root, env, out, err, sender, announce, verbose)
    finally:
        if sender is not None:
            sender.stop()
            err.write(f"hako: {sender.summary()}\n")


def soak_watch(sender: Sender, port: int):
    """A console watcher that starts the sender at the guest's ready line."""
    def watch(line: str) -> None:
        if line.strip() == READY_LINE:
            sender.start(port)
    return watch


def both(first, second):
    """One console watcher calling FIRST and SECOND (either may be None)."""
    if first is None or second is None:
        return first or second

    def watch(line: str) -> None:
        first(line)
        second(line)
    return watch


def _launch_checked(profile, argv, name, timeout, quiet, keep_log, build, root, env,
                    out, err, sender, announce=True, verbose=False) -> BootOutcome:
    problem = prepare(profile, root, env, build)
    if problem:
        return BootOutcome(name, *problem)
    epoch_names = {}
    if profile.model:                  # the addresses of the build just made
        if profile.model_epochs:
            epoch_names, missing = costmodel.epoch_addresses(root, profile.model_epochs)
            if missing:
                err.write(f"hako: warning: no epoch at {', '.join(missing)} (not in the build)\n")
        # SH-4: no release=ADDR (the plugin reads no registers there, and one
        # CPU never waits for a lock's release); the TLB-miss handler's range.
        clocks = costmodel.handler_args(root, SH4_ELF) if profile.arch == "sh4" else \
            costmodel.vclock_args(root, image_path(dataclasses.replace(profile, iso=False)))
        profile = dataclasses.replace(profile, model_args=costmodel.epoch_args(epoch_names) + clocks)
        argv = build_argv(profile, env)
    banner = qemu_banner(profile, env) if announce else None
    if banner:
        err.write(banner + "\n")
        err.flush()
    if profile.gdb:
        timeout = None
        err.write(f"hako: waiting for gdb on :{profile.gdb_port} (make gdb)\n")
        err.flush()
    if profile.model:
        models = costmodel.models_of(profile.model)
        costmodel.copy_plugins(root, len(models))
        (root / profile.model_out).unlink(missing_ok=True)
        for model in models[1:]:
            (root / costmodel.model_out_of(profile.model_out, model)).unlink(missing_ok=True)
    watch = None if sender is None else soak_watch(sender, profile.dgram_ports[0])
    meta = run_meta(profile, root, env, argv)
    with tempfile.TemporaryDirectory(prefix="hako-qmp-") as qmp_dir:
        budget = None
        if profile.mode == "icount" and timeout is not None and real_qemu(env):
            path = Path(qmp_dir) / "qmp.sock"
            budget = guestclock.Budget(path, guestclock.budget_for(timeout))
            argv = argv + guestclock.qmp_args(path)
            timeout = timeout * guestclock.LOAD_FACTOR
        board = progress.current()
        shown = None if board is None else board.begin(
            name, progress.expected_records(paths.results_path(root, name)))
        try:
            outcome = launch(argv, name, timeout, quiet, root, env, out,
                             both(watch, shown and shown.feed), budget, verbose)
        finally:
            if shown is not None:
                board.end(shown)
            if budget is not None:
                budget.close()
    if profile.arch == "sh4" and outcome.qemu_status == 0 and outcome.exit_code == EXIT_RESET:
        console = outcome.log.read_text(errors="replace").splitlines() if outcome.log else []
        power = sh4_power_status(console)      # r2d's power-off exits 0 (qemu.py)
        if power is not None:
            outcome.exit_code, outcome.reason = map_qemu_status(power)
    finish(outcome, root, keep_log, meta)
    if profile.model:
        join_model(outcome, profile, root, err, epoch_names)
    return outcome


def run_shell(profile: Profile, root: Path | None = None, env: dict | None = None,
              err=None) -> int:
    """Exec an interactive QEMU on this terminal; returns only on error."""
    env = dict(os.environ) if env is None else env
    root = paths.repo_root(env) if root is None else Path(root)
    err = sys.stderr if err is None else err
    profile = dataclasses.replace(profile, interactive=True)
    try:
        argv = build_argv(profile, env)
    except ValueError as exc:
        err.write(f"hako: {exc}\n")
        return EXIT_USAGE
    problem = prepare(profile, root, env, build=True)
    if problem:
        err.write(f"hako: FAILED: {problem[1]}\n")
        return problem[0]
    banner = qemu_banner(profile, env)
    if banner:
        err.write(banner + "\n")
    if profile.gdb:
        err.write(f"hako: waiting for gdb on :{profile.gdb_port} (make gdb)\n")
    err.write("hako: QEMU console; press Ctrl-A X to quit, Ctrl-A C for the monitor\n")
    err.flush()
    os.chdir(root)
    os.execvpe(argv[0], argv, env)
    return EXIT_QEMU  # not reached
