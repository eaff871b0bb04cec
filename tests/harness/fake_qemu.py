#!/usr/bin/env python3
"""Stand-in for qemu-system-x86_64 used by the harness tests.

Behaviour is driven by environment variables:
  FAKE_QEMU_ARGV     file to write the received argv to (JSON list)
  FAKE_QEMU_OUT      bytes-as-text to print on stdout (may contain \\r\\n)
  FAKE_QEMU_STDERR   text to print on stderr
  FAKE_QEMU_SLEEP    seconds to sleep before exiting
  FAKE_QEMU_CHILD    file to write the pid of a sleeping child process to
  FAKE_QEMU_EXIT     exit status (default 1 = guest wrote 0 to port 0xf4)
  FAKE_QEMU_DUMP     if set, answer a Ctrl-\\ byte on stdin with "DUMP" on stdout
  FAKE_QEMU_MODEL    text to write, at exit, to the out= file of a -plugin
                     argument (what the cost-model plugin would write)
"""
import json
import os
import subprocess
import sys
import threading
import time


def answer_dump_key() -> None:
    while True:
        byte = sys.stdin.buffer.read(1)
        if not byte:
            return
        if byte == b"\x1c":
            sys.stdout.buffer.write(b"DUMP\n")
            sys.stdout.flush()


def write_model(argv: list[str], text: str) -> None:
    """Play the cost-model plugin: write TEXT to the -plugin's out= file."""
    for option, value in zip(argv, argv[1:]):
        if option != "-plugin":
            continue
        for part in value.split(",")[1:]:
            if part.startswith("out="):
                with open(part[len("out="):], "w", encoding="utf-8") as f:
                    f.write(text)


def main() -> int:
    env = os.environ
    if env.get("FAKE_QEMU_ARGV"):
        with open(env["FAKE_QEMU_ARGV"], "w", encoding="utf-8") as f:
            json.dump(sys.argv[1:], f)
    if env.get("FAKE_QEMU_CHILD"):
        child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
        with open(env["FAKE_QEMU_CHILD"], "w", encoding="utf-8") as f:
            f.write(str(child.pid))
    if env.get("FAKE_QEMU_DUMP"):
        threading.Thread(target=answer_dump_key, daemon=True).start()
    sys.stdout.buffer.write(env.get("FAKE_QEMU_OUT", "").encode("utf-8"))
    sys.stdout.flush()
    sys.stderr.write(env.get("FAKE_QEMU_STDERR", ""))
    sys.stderr.flush()
    time.sleep(float(env.get("FAKE_QEMU_SLEEP", "0")))
    if env.get("FAKE_QEMU_MODEL"):
        write_model(sys.argv[1:], env["FAKE_QEMU_MODEL"])
    return int(env.get("FAKE_QEMU_EXIT", "1"))


if __name__ == "__main__":
    sys.exit(main())
