"""shared/rules/ids.toml, the canonical ids, for the tests that check the engine's catalogs.

The file sits beside the repository (../shared/rules from the main checkout, further up from a
worktree); it is never read at run time, only by these tests.
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import Any

RELATIVE = Path("shared") / "rules" / "ids.toml"


@cache
def ids_toml() -> dict[str, Any]:
    repository = Path(__file__).resolve().parents[2]
    for folder in repository.parents:
        if (folder / RELATIVE).is_file():
            with (folder / RELATIVE).open("rb") as f:
                return tomllib.load(f)
    raise AssertionError(f"{RELATIVE} not found in any folder above {repository}: the catalog "
                         "tests compare the engine with it")
