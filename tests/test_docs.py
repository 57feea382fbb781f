"""The documentation as a new user meets it: every Python block of README.md, docs/ and each
ruleset's README (wargym/<ruleset>/README.md: its "Set up a position") runs, from the clone's folder
and from any other; every link stays inside the repository.

Each block runs in a fresh interpreter (a subprocess), once with the repository root as the working
directory (where the README's set-up commands leave a user: the source folder wargym/ comes first
on sys.path there, wargym/_layout.py) and once from an empty directory (the installed package).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
RULESET_DOCS = sorted(ROOT.glob("wargym/*/README.md"))
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), *RULESET_DOCS]
FENCE = re.compile(r"^```python\n(.*?)^```", re.M | re.S)
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def python_blocks() -> list[tuple[str, str]]:
    found = []
    for doc in DOCS:
        for i, block in enumerate(FENCE.findall(doc.read_text())):
            found.append((f"{doc.relative_to(ROOT)}#{i + 1}", block))
    return found


BLOCKS = python_blocks()


def test_the_docs_have_python_blocks_to_run():
    names = {name.split("#")[0] for name, _ in BLOCKS}
    assert "README.md" in names and "docs/agents.md" in names, names


@pytest.mark.parametrize("where", ["repo root", "empty folder"])
@pytest.mark.parametrize("name,block", BLOCKS, ids=[name for name, _ in BLOCKS])
def test_python_block_runs(name, block, where, tmp_path):
    cwd = ROOT if where == "repo root" else tmp_path
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["MPLBACKEND"] = "Agg"
    done = subprocess.run([sys.executable, "-"], input=block, cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, f"{name} from the {where} failed:\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}"


def test_links_in_the_docs_stay_inside_the_repository():
    """A relative link resolves to a file of the repository; nothing points at a folder beside it."""
    for doc in [*DOCS, *sorted(ROOT.glob("wargym/*/COVERAGE.md")), ROOT / "benchmarks" / "README.md"]:
        text = doc.read_text()
        assert "../shared" not in text and "DESIGN.md" not in text, f"{doc.relative_to(ROOT)} points outside the repo"
        for target in LINK.findall(text):
            if re.match(r"[a-z]+://|#|mailto:", target):
                continue
            path = (doc.parent / target.split("#")[0]).resolve()
            assert path.is_relative_to(ROOT) and path.exists(), f"{doc.relative_to(ROOT)} links to {target}"
