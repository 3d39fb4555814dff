"""What the optional compiled build (mypyc; benchmarks/compiled.py) needs of the engine's code.

The engine is plain Python and that is the reference; the compiled build must play exactly the
same games (its run of tests/engine checks it). mypyc turns a class into a fast native class
unless the class has a decorator other than `dataclass`: then it stays an ordinary Python
class, whose methods are still compiled.

It also says which modules the build compiles and, at run time, which engine runs (`pbem
status`, `/healthz`): the deploys compile the engine where they can (tools/compile_engine.py).
"""

from __future__ import annotations

import functools
import importlib.machinery
import importlib.util
from collections.abc import Callable
from pathlib import Path
from typing import Final, TypeVar

T = TypeVar("T", bound=type)


def interpreted(cls: T) -> T:
    """Keep `cls` an ordinary Python class under mypyc (it changes nothing in pure Python).

    For generic dataclasses: mypyc's native classes cannot be both `Generic` and a dataclass
    (class creation fails with "attribute '__dict__' of 'type' objects is not writable"), and
    their subclasses must then stay interpreted too.
    """
    return cls


# The build's layout, shared by tools/compile_engine.py (the deploys' build), the benchmarks'
# copy (benchmarks/compiled.py) and `which_engine` below. Left as Python: the scenario tooling
# (it reads files and runs rarely), and the events' TypedDicts, which the tests read back
# through typing introspection; mypyc's compiled TypedDicts keep neither NotRequired nor the
# unions. Play never reads them.
LEFT_INTERPRETED: Final = ("pbem/engine/scenarios/", "pbem/engine/event_kinds.py")
# mypyc puts the compiled code of all the modules in one shared library, named after the group,
# beside the `pbem` package (`pbem_engine__mypyc.cpython-311-….so`); one small extension
# module per engine module (`rules.cpython-311-….so` beside `rules.py`) loads its part.
GROUP: Final = "pbem_engine"
COMPILED: Final = "compiled"
PURE: Final = "pure Python"


def compiled_sources(root: Path) -> list[str]:
    """The engine's modules mypyc compiles, as paths relative to `root` (the directory that
    holds the `pbem` package)."""
    found = sorted(p.relative_to(root).as_posix()
                   for p in (root / "pbem" / "engine").rglob("*.py"))
    return [m for m in found if not m.startswith(LEFT_INTERPRETED)
            and not m.endswith("__main__.py")]


def module_name(source: str) -> str:
    """`pbem/engine/facilities/__init__.py` -> `pbem.engine.facilities`."""
    return source.removesuffix(".py").removesuffix("/__init__").replace("/", ".")


def build_of(root: Path, origin_of: Callable[[str], str | None]) -> str:
    """COMPILED when every module mypyc compiles in the tree at `root` is loaded from an
    extension module (`origin_of(name)` is the file a module is, or would be, loaded from),
    PURE when none is, else "partly compiled (n of m modules)": a broken build."""
    names = [module_name(source) for source in compiled_sources(root)]
    compiled = 0
    for name in names:
        origin = origin_of(name)
        if origin is not None and origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)):
            compiled += 1
    if compiled == len(names):
        return COMPILED
    if compiled == 0:
        return PURE
    return f"partly compiled ({compiled} of {len(names)} modules)"


def _origin(name: str) -> str | None:
    spec = importlib.util.find_spec(name)
    return spec.origin if spec is not None else None


@functools.cache
def which_engine() -> str:
    """Which engine this process runs (`build_of` its own tree): found once, since a process
    cannot swap its modules."""
    spec = importlib.util.find_spec("pbem.engine")
    assert spec is not None and spec.submodule_search_locations is not None
    return build_of(Path(list(spec.submodule_search_locations)[0]).parent.parent, _origin)
