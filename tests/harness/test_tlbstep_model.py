"""The TLB-step check end to end: boots the real kernel's `tlbstep` with
the real cost-model plugin and the `modern` profile, and checks that the
modelled dTLB/STLB misses per page step where the profile's TLB sizes say
(model.check_tlbstep has the expected shape).  Skipped until the plugin
is built (`make costmodel`); it boots QEMU once (a few seconds)."""
import io
import json

import pytest

from hakotool import bench, model
from hakotool.paths import repo_root

PROFILE = "modern"


def test_tlb_step_where_the_profile_says(model_tree):
    run_root, env = model_tree
    root = repo_root()
    profile = root / model.profile_rel(PROFILE)
    if not profile.is_file():
        pytest.skip(f"no profile {model.profile_rel(PROFILE)}")
    sizes = model.profile_tlb_sizes(profile.read_text())
    assert sizes, f"cannot read the L1 dTLB and STLB sizes from {profile}"
    out, err = io.StringIO(), io.StringIO()
    status = bench.run_bench("tlbstep", quiet=True, model=PROFILE, out=out, err=err,
                             root=run_root, env=env)
    assert status == 0, err.getvalue()
    lines = model.joined_path(run_root, "bench-tlbstep").read_text().splitlines()
    problems = model.check_tlbstep([json.loads(line) for line in lines], *sizes)
    assert problems == [], out.getvalue()
