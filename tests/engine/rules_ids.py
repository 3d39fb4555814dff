"""ids.toml, the canonical ids and numbers, for the tests that check the engine's catalogs.

The rules folder (shared/rules/ids.toml) sits beside the repository on a developer's machine
but not in every clean clone, so the repository keeps a copy, tests/engine/ids.toml. The copy
is what the catalog tests read; when the shared file is found above the repository, a test
holds the copy to it, so the two never drift apart. The engine never reads either at run time.
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from typing import Any

COPY = Path(__file__).with_name("ids.toml")
SHARED = Path("shared") / "rules" / "ids.toml"


def shared_ids_toml() -> Path | None:
    """The shared rules' ids.toml in a folder above the repository, if there is one."""
    repository = Path(__file__).resolve().parents[2]
    return next((folder / SHARED for folder in repository.parents
                 if (folder / SHARED).is_file()), None)


@cache
def ids_toml() -> dict[str, Any]:
    with COPY.open("rb") as f:
        return tomllib.load(f)
