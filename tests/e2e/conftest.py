"""The browser tests drive Debian's chromium: a module of them says
``pytestmark = pytest.mark.usefixtures("chromium")`` (a single test asks for ``chromium``), and
without the browser they skip, naming the package (fail under
``PBEM_TEST_REQUIRE_PROGRAMS=1``, as in CI; tests/programs.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.programs import CHROMIUM


# Session-scoped so it is set up before any module's server or browser fixture starts.
@pytest.fixture(scope="session")
def chromium() -> Path:
    return CHROMIUM.require()
