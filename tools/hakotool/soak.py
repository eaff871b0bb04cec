"""Host-injected traffic for `--net dgram` soak runs.

With `--net dgram` the guest's RTL8139 sits on a QEMU `-netdev dgram`
whose local end is 127.0.0.1:P; each UDP datagram sent there arrives as
one Ethernet frame.  The harness picks P and its own port Q (QEMU's
remote end), and once the guest prints READY_LINE a `Sender` thread sends
`frames` frames at `rate` frames per second.  Nothing leaves 127.0.0.1.

The timing is the host's: this is a non-deterministic soak, meant for
`--mode tcg` (under icount the guest clock has nothing to do with host time).

A frame (FRAME_LEN bytes, what user/nicsoak checks):
   0..5   destination ff:ff:ff:ff:ff:ff (broadcast)
   6..11  source SOURCE_MAC
  12..13  ethertype ETHERTYPE (big-endian)
  14..17  sequence number 0, 1, 2, ... (little-endian)
  18..21  FNV-1a 32 of every other byte of the frame (little-endian)
  22..    filler: byte i is (seq + i) & 0xff
"""
from __future__ import annotations

import socket
import struct
import threading
import time

HOST = "127.0.0.1"
READY_LINE = "nicsoak: ready"
DEFAULT_RATE = 10000.0
DEFAULT_FRAMES = 20000
FRAME_LEN = 64
SOURCE_MAC = bytes.fromhex("5254004b4bfe")
ETHERTYPE = 0x88B6                 # IEEE 802 local experimental (the kernel sender has 0x88b5)
BROADCAST = b"\xff" * 6
SEQ_AT, CHECK_AT, FILL_AT = 14, 18, 22
FNV_BASIS, FNV_PRIME = 0x811C9DC5, 0x01000193


def fnv1a(data: bytes, value: int = FNV_BASIS) -> int:
    """32-bit FNV-1a of data, continuing from value."""
    for byte in data:
        value = ((value ^ byte) * FNV_PRIME) & 0xFFFFFFFF
    return value


def frame_check(frame: bytes) -> int:
    """The checksum of a frame: FNV-1a over all bytes but its own field."""
    return fnv1a(frame[CHECK_AT + 4:], fnv1a(frame[:CHECK_AT]))


def build_frame(seq: int) -> bytes:
    """Frame number seq, checksum filled in."""
    head = BROADCAST + SOURCE_MAC + struct.pack(">H", ETHERTYPE) + struct.pack("<I", seq)
    fill = bytes((seq + i) & 0xFF for i in range(FILL_AT, FRAME_LEN))
    check = fnv1a(fill, fnv1a(head))
    return head + struct.pack("<I", check) + fill


def parse_frame(frame: bytes) -> int | None:
    """The sequence number of an intact frame, None if it is damaged."""
    if len(frame) != FRAME_LEN or frame[:6] != BROADCAST or frame[6:12] != SOURCE_MAC:
        return None
    if struct.unpack(">H", frame[12:14])[0] != ETHERTYPE:
        return None
    (check,) = struct.unpack("<I", frame[CHECK_AT:CHECK_AT + 4])
    if check != frame_check(frame):
        return None
    return struct.unpack("<I", frame[SEQ_AT:SEQ_AT + 4])[0]


def bound_socket() -> socket.socket:
    """A UDP socket on 127.0.0.1 at a port the kernel chose."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    sock.bind((HOST, 0))
    return sock


def free_port() -> int:
    """A UDP port on 127.0.0.1 that was free a moment ago (for QEMU to bind)."""
    with bound_socket() as sock:
        return sock.getsockname()[1]


class Sender:
    """Sends `frames` frames at `rate` per second to 127.0.0.1:`port`.

    Its socket is bound first (`peer_port` is its port: QEMU's remote end,
    so whatever the guest sends comes back here and is ignored).  `start()`
    begins sending in a thread, `stop()` ends it early; `sent` counts.
    """

    def __init__(self, rate: float = DEFAULT_RATE, frames: int = DEFAULT_FRAMES):
        if rate <= 0 or frames < 1:
            raise ValueError("soak rate and frame count must be positive")
        self.rate = rate
        self.frames = frames
        self.sock = bound_socket()
        self.peer_port = self.sock.getsockname()[1]
        self.port = 0
        self._frames = [build_frame(seq) for seq in range(frames)]   # ~6 us each: not while sending
        self.sent = 0
        self.elapsed = 0.0
        self._halt = threading.Event()
        self._thread: threading.Thread | None = None

    def start(self, port: int) -> None:
        """Begin sending to 127.0.0.1:port (once; later calls do nothing)."""
        if self._thread is not None:
            return
        self.port = port
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def _run(self) -> None:
        start = time.monotonic()
        while self.sent < self.frames and not self._halt.is_set():
            due = min(self.frames, int((time.monotonic() - start) * self.rate) + 1)
            while self.sent < due:
                self._send(self._frames[self.sent])
            if self.sent < self.frames:
                time.sleep(max(0.0, start + self.sent / self.rate - time.monotonic()))
        self.elapsed = time.monotonic() - start

    def _send(self, frame: bytes) -> None:
        try:
            self.sock.sendto(frame, (HOST, self.port))
        except OSError:
            pass                      # e.g. QEMU gone: count it as sent and lost
        self.sent += 1

    def stop(self) -> None:
        """Stop sending, wait for the thread, close the socket."""
        self._halt.set()
        if self._thread is not None:
            self._thread.join(timeout=5)
        self.sock.close()

    def summary(self) -> str:
        if self._thread is None:
            return f"soak: sent nothing (the guest never printed {READY_LINE!r})"
        rate = self.sent / self.elapsed if self.elapsed > 0 else 0.0
        return (f"soak: sent {self.sent} of {self.frames} frames to {HOST}:{self.port} "
                f"in {self.elapsed:.2f} s ({rate:.0f}/s, asked {self.rate:g}/s)")
