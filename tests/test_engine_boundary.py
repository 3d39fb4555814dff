"""The rules engine stays a pure library: importing it loads no web, database or clock code."""

from __future__ import annotations

import json
import subprocess
import sys

FORBIDDEN = ("flask", "sqlalchemy", "marshmallow", "apscheduler", "werkzeug")


def test_importing_the_engine_loads_no_server_library() -> None:
    code = (
        "import json, sys\n"
        "import pbem.engine\n"
        f"names = {FORBIDDEN!r}\n"
        "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] in names)))\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=False
    )
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout) == []
