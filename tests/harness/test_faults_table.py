"""Tests for the fault-injection summary of `./hako bench faults`."""
from hakotool import bench
from hakotool.papers.p003 import faults as faults_table

RECORD = {"kind": "faults", "faults": 2000, "seed": 1, "ms": 3306, "text": 897, "data": 880,
          "wild": 216, "hang": 7, "crashes": 18, "kills": 4, "watchdog": 4, "exits": 0,
          "restarts": 22, "gave_up": 0, "refused": 2006, "requests": 9120,
          "wild_events": 210, "wild_checked": 150, "wild_requests": 1950, "wild_refused": 1950,
          "wild_accepted": 0, "sent": 810,
          "ok": 797, "err": 0, "epipe": 13, "epipe_active": 10, "reported_done": 700,
          "unconfirmed": 93, "received": 622, "rx_drops": 0, "bystander": 4278, "flowing": 1,
          "ok_all": 1}


def test_faults_bench_registered_with_both_drivers_as_processes():
    faults = bench.registry()["faults"]
    assert faults.profile.cmdline == "drvproc=rtl8139,e1000"
    assert faults.profile.net == "hub"
    assert faults.profile.words[0] == "faultinject"
    assert "faults" in bench.describe()


def test_render_reports_every_count():
    text = faults_table.render([{"kind": "boot"}, RECORD])
    assert "2000 faults" in text
    assert "text 897, data 880, wild requests 216, hangs 7" in text
    assert "18 crashes, 4 kills (4 by the watchdog)" in text
    assert "restarts      22" in text
    assert "9120 driver requests, 2006 refused" in text
    assert ("210 wild events (150 to a driver with no bit flipped): 1950 requests, 1950 refused, "
            "0 accepted") in text
    assert "sent 810 = ok 797 + refused 0 + epipe 13" in text
    assert "accepted but not received 175" in text
    assert "all checks held" in text


def test_render_says_when_a_check_failed_or_no_record():
    assert "A CHECK FAILED" in faults_table.render([dict(RECORD, ok_all=0)])
    assert "NOT flowing" in faults_table.render([dict(RECORD, flowing=0)])
    assert "no faults record" in faults_table.render([])
