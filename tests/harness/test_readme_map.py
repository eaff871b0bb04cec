"""The docs a newcomer starts from stay true to the tree.

* Every path the README's map ("Where each mechanism lives") names exists, and
  every paper has a row in it.
* Every relative link in README.md and docs/ (the generated docs/report/ aside)
  points at a file or folder that exists.
* No source or doc file names an issue by number: history is git's.
"""
import os
import pathlib
import re

import pytest


def repo_root() -> pathlib.Path:
    here = pathlib.Path(__file__).resolve()
    for parent in here.parents:
        if (parent / "README.md").is_file() and (parent / "Makefile").is_file():
            return parent
    raise RuntimeError("no repository root above " + str(here))


ROOT = repo_root()
MAP_HEADING = "## Where each mechanism lives"
PAPERS = ("000", "001", "002", "003", "004")
CODE = re.compile(r"`([^`\s]+)`")
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
ISSUE = re.compile(r"\bissue [0-9]", re.IGNORECASE)
SOURCE_SUFFIXES = {".c", ".h", ".S", ".py", ".md"}
NOT_SOURCE = ("results", "docs/report", "build", ".git", ".venv")


def map_section(text: str) -> str:
    start = text.index(MAP_HEADING) + len(MAP_HEADING)
    end = text.find("\n## ", start)
    return text[start:] if end < 0 else text[start:end]


def map_paths(section: str) -> list[str]:
    """Backticked words of the map that are paths (they hold a slash)."""
    return [word.rstrip("/") for word in CODE.findall(section) if "/" in word]


def doc_files() -> list[pathlib.Path]:
    docs = [p for p in (ROOT / "docs").rglob("*.md")
            if (ROOT / "docs" / "report") not in p.parents]
    return [ROOT / "README.md"] + sorted(docs)


def broken_links(path: pathlib.Path) -> list[str]:
    broken = []
    for target in LINK.findall(path.read_text(encoding="utf-8")):
        if re.match(r"[a-z]+:", target) or target.startswith("#"):
            continue
        file_part = target.split("#", 1)[0]
        if not (path.parent / file_part).exists():
            broken.append(target)
    return broken


def test_map_paths_are_found_by_the_parser():
    section = map_section("intro\n" + MAP_HEADING + "\n| 000 | x | `kernel/a.c` | `b` |\n"
                          "`user/p/`, `kernel/c.c`\n## Next\n`kernel/d.c`\n")
    assert map_paths(section) == ["kernel/a.c", "user/p", "kernel/c.c"]


def test_every_path_in_the_readme_map_exists():
    section = map_section((ROOT / "README.md").read_text(encoding="utf-8"))
    paths = map_paths(section)
    assert paths, "the README's map names no paths"
    missing = [p for p in paths if not (ROOT / p).exists()]
    assert missing == [], "README map names paths that do not exist: " + ", ".join(missing)


def test_every_paper_has_a_row_in_the_map():
    section = map_section((ROOT / "README.md").read_text(encoding="utf-8"))
    rows = [line for line in section.splitlines() if line.startswith("| 0")]
    for paper in PAPERS:
        assert any(row.startswith(f"| {paper} |") for row in rows), f"no map row for paper {paper}"


def test_a_missing_link_is_reported(tmp_path):
    doc = tmp_path / "a.md"
    (tmp_path / "b.md").write_text("")
    doc.write_text("[b](b.md) [b](b.md#part) [web](https://example.org) [x](#top) [gone](c.md)\n")
    assert broken_links(doc) == ["c.md"]


@pytest.mark.parametrize("path", doc_files(), ids=lambda p: str(p.relative_to(ROOT)))
def test_every_doc_link_resolves(path):
    assert broken_links(path) == []


def source_files():
    """Source and doc files of the tree, pruning what is generated or not ours."""
    for folder, dirs, files in os.walk(ROOT):
        here = pathlib.Path(folder)
        rel = here.relative_to(ROOT).as_posix()
        dirs[:] = [d for d in dirs
                   if (d if rel == "." else f"{rel}/{d}") not in NOT_SOURCE]
        for name in files:
            if pathlib.Path(name).suffix in SOURCE_SUFFIXES:
                yield here / name


def test_no_issue_numbers_in_code_or_docs():
    hits = []
    for path in source_files():
        rel = path.relative_to(ROOT).as_posix()
        text = path.read_text(encoding="utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), 1):
            if ISSUE.search(line):
                hits.append(f"{rel}:{number}: {line.strip()}")
    assert hits == [], "issue numbers (history belongs in git):\n" + "\n".join(hits)
