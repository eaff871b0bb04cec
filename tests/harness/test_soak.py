"""Tests for `--net dgram`: its QEMU argv, the soak frames and sender."""
import io
import json
import socket
import struct
from pathlib import Path

import pytest

from hakotool import runner, soak
from hakotool.cli import make_parser, profile_from
from hakotool.qemu import Profile, build_argv

NO_ENV: dict = {}


def test_dgram_argv_is_one_rtl8139_on_localhost_udp():
    argv = build_argv(Profile(net="dgram", dgram_ports=(4001, 4002)), NO_ENV)
    netdevs = [argv[i + 1] for i, a in enumerate(argv) if a == "-netdev"]
    assert netdevs == ["dgram,id=hako-n0,local.type=inet,local.host=127.0.0.1,local.port=4001,"
                       "remote.type=inet,remote.host=127.0.0.1,remote.port=4002"]
    devices = [argv[i + 1] for i, a in enumerate(argv) if a == "-device"]
    assert "rtl8139,netdev=hako-n0,mac=52:54:00:48:4b:01,romfile=" in devices
    assert not any(d.startswith("e1000") for d in devices)
    assert Profile(net="dgram").default_name() == "boot-pc-smp4-icount-net-dgram"


@pytest.mark.parametrize("ports", [(0, 0), (4001, 0), (70000, 4002)])
def test_dgram_without_ports_is_refused(ports):
    with pytest.raises(ValueError, match="two UDP ports"):
        build_argv(Profile(net="dgram", dgram_ports=ports), NO_ENV)


def test_cli_soak_options_reach_the_profile():
    args = make_parser().parse_args(["boot", "--mode", "tcg", "--net", "dgram",
                                     "--soak-rate", "50000", "--soak-frames", "7"])
    profile = profile_from(args, ["nicsoak"])
    assert (profile.net, profile.soak_rate, profile.soak_frames) == ("dgram", 50000.0, 7)
    shell = profile_from(make_parser().parse_args(["shell"]), [])
    assert (shell.soak_rate, shell.soak_frames) == (soak.DEFAULT_RATE, soak.DEFAULT_FRAMES)


def test_frame_format():
    frame = soak.build_frame(0x01020304)
    assert len(frame) == soak.FRAME_LEN == 64
    assert frame[:6] == b"\xff" * 6 and frame[6:12] == bytes.fromhex("5254004b4bfe")
    assert frame[12:14] == b"\x88\xb6"
    assert frame[14:18] == bytes([4, 3, 2, 1])
    assert frame[22] == (0x04 + 22) & 0xFF and frame[63] == (0x04 + 63) & 0xFF
    assert struct.unpack("<I", frame[18:22])[0] == soak.frame_check(frame)
    assert soak.parse_frame(frame) == 0x01020304


def test_fnv1a_known_values():
    assert soak.fnv1a(b"") == 0x811C9DC5
    assert soak.fnv1a(b"a") == 0xE40C292C


def test_damaged_frames_are_recognised():
    frame = bytearray(soak.build_frame(5))
    frame[40] ^= 1
    assert soak.parse_frame(bytes(frame)) is None
    assert soak.parse_frame(soak.build_frame(5)[:60]) is None


def test_sender_sends_count_frames_in_order_at_about_the_rate():
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as rx:
        rx.bind(("127.0.0.1", 0))
        rx.settimeout(5)
        rx.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 1 << 20)
        sender = soak.Sender(rate=2000, frames=200)
        sender.start(rx.getsockname()[1])
        seqs = []
        while len(seqs) < 200:
            data, source = rx.recvfrom(2048)
            assert source == ("127.0.0.1", sender.peer_port)
            seqs.append(soak.parse_frame(data))
        sender.stop()
    assert seqs == list(range(200))
    assert sender.sent == 200
    assert 0.05 < sender.elapsed < 2.0          # 200 frames at 2000/s: about 0.1 s
    assert "sent 200 of 200 frames" in sender.summary()


def test_sender_never_started_says_so():
    sender = soak.Sender(frames=3)
    sender.stop()
    assert "sent nothing" in sender.summary()
    with pytest.raises(ValueError):
        soak.Sender(rate=0)


def test_boot_starts_the_sender_at_the_ready_line(fake_env, tmp_path):
    argv_file = tmp_path / "argv.json"
    fake_env.update(FAKE_QEMU_OUT="booting\nnicsoak: ready\n", FAKE_QEMU_SLEEP="0.5",
                    FAKE_QEMU_ARGV=str(argv_file))
    err = io.StringIO()
    profile = Profile(mode="tcg", net="dgram", soak_rate=1000, soak_frames=50,
                      words=("nicsoak",))
    outcome = runner.run_boot(profile, "soak", 10.0, root=Path(fake_env["HAKO_ROOT"]),
                              env=fake_env, out=io.StringIO(), err=err)
    assert outcome.ok
    assert "soak: sent 50 of 50 frames" in err.getvalue()
    netdev = json.loads(argv_file.read_text())
    spec = netdev[netdev.index("-netdev") + 1]
    assert "local.host=127.0.0.1" in spec and "remote.host=127.0.0.1" in spec
