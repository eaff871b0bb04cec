"""Every result file validates against tools/hakotool/results.schema.json, and a
run's file starts with the harness's meta record."""
import io
import json
import subprocess
from pathlib import Path

import jsonschema
import pytest

from hakotool import runner
from hakotool.qemu import Profile
from hakotool.results import load_all, load_meta

from conftest import REPO_ROOT

SCHEMA = json.loads((REPO_ROOT / "tools/hakotool/results.schema.json").read_text())
VALIDATOR = jsonschema.Draft202012Validator(SCHEMA)
def committed_results() -> list[Path]:
    """The result files git tracks (a local run's files may come from an older harness)."""
    proc = subprocess.run(["git", "ls-files", "results/*.jsonl"], cwd=REPO_ROOT,
                          capture_output=True, text=True)
    names = proc.stdout.split() if proc.returncode == 0 else []
    return sorted(REPO_ROOT / n for n in names
                  if not n.endswith("history.jsonl"))   # history: figures per commit, not a run


RESULT_FILES = committed_results()


def problems(path: Path) -> list[str]:
    found = []
    for number, record in enumerate(load_all(path), 1):
        for error in VALIDATOR.iter_errors(record):
            found.append(f"{path.name}:{number}: {record.get('kind')}: {error.message}")
    return found


def test_the_schema_is_a_valid_json_schema():
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


@pytest.mark.parametrize("path", RESULT_FILES, ids=[p.name for p in RESULT_FILES])
def test_every_committed_result_file_validates(path):
    assert problems(path) == []


def test_a_run_writes_a_meta_record_first_and_it_validates(fake_env):
    fake_env["FAKE_QEMU_OUT"] = ('@@ {"kind":"boot","machine":"pc","cpus":2,"free_frames":9,'
                                 '"tsc_khz":1000000}\n@@ {"kind":"ktest","name":"pmm","ok":true}\n')
    root = Path(fake_env["HAKO_ROOT"])
    outcome = runner.run_boot(Profile(smp=2, words=("ktest",)), "schema-run", 10.0, root=root,
                              env=fake_env, out=io.StringIO(), err=io.StringIO())
    assert outcome.exit_code == 0
    path = root / "results/schema-run.jsonl"
    assert load_all(path)[0]["kind"] == "meta" and load_meta(path)["cpus"] == 2
    assert problems(path) == []


def test_a_record_missing_its_fields_is_refused():
    bad = {"kind": "bench", "name": "x", "unit": "tsc"}
    assert not VALIDATOR.is_valid(bad)
    assert not VALIDATOR.is_valid({"kind": "meta", "mode": "icount"})
    assert not VALIDATOR.is_valid({"no": "kind"})
    assert VALIDATOR.is_valid({"kind": "some-new-kind", "x": 1})
