"""The README's set-up commands are the ones CI runs, so they cannot drift apart."""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def _ci_test_command() -> str:
    script = (REPO / ".ci/run").read_text(encoding="utf-8")
    match = re.search(r'^TEST_COMMAND="([^"]+)"$', script, re.MULTILINE)
    assert match, '.ci/run must define TEST_COMMAND="..." on one line'
    return match.group(1)


def test_readme_shows_the_exact_test_command_ci_runs() -> None:
    readme_lines = (REPO / "README.md").read_text(encoding="utf-8").splitlines()
    assert _ci_test_command() in {line.strip() for line in readme_lines}


def test_ci_runs_the_test_command_it_defines() -> None:
    assert 'bash -c "$TEST_COMMAND"' in (REPO / ".ci/run").read_text(encoding="utf-8")


def test_readme_shows_how_to_run_the_server() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    serve = "python3 -m venv .venv && .venv/bin/pip install -e . && .venv/bin/pbem serve"
    assert serve in readme.splitlines()


def test_readme_gives_the_quick_check_and_its_marker_exists() -> None:
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    assert '`.venv/bin/python -m pytest -m "not slow"`' in readme
    assert '"slow: ' in (REPO / "pyproject.toml").read_text(encoding="utf-8")
