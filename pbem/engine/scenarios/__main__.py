"""`python -m pbem.engine.scenarios FILE_OR_DIR...`: run scenario files, PASS/FAIL each."""

from __future__ import annotations

import sys

from .runner import main_scenarios

sys.exit(main_scenarios(sys.argv[1:]))
