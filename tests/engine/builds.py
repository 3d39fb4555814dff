"""Which build of the engine this run tests: pure Python, or the compiled one
(benchmarks/compiled.py test sets PBEM_EXPECT_COMPILED_ENGINE=1)."""

from __future__ import annotations

import os

import pytest

COMPILED = os.environ.get("PBEM_EXPECT_COMPILED_ENGINE") == "1"

# Tests that watch which Python functions run (sys.setprofile) or swap a module's function
# with monkeypatch see nothing of compiled code, which calls its functions directly. They
# check how the code is built, so the pure Python run, which CI always makes, is theirs.
pure_python_only = pytest.mark.skipif(
    COMPILED, reason="watches or swaps Python functions, which compiled code does not call")
