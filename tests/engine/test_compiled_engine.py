"""The optional compiled build (benchmarks/compiled.py) runs these same engine tests; this one
makes sure that run really exercised the compiled modules, not the pure Python beside them."""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from pathlib import Path

import pytest

import pbem.engine
from benchmarks.compiled import engine_modules
from pbem.engine.compiled import COMPILED, PURE, build_of, which_engine

EXPECT_COMPILED = os.environ.get("PBEM_EXPECT_COMPILED_ENGINE") == "1"

ROOT = Path(pbem.engine.__file__).resolve().parents[2]


@pytest.mark.skipif(not EXPECT_COMPILED,
                    reason="only in the compiled build's run (benchmarks/compiled.py test)")
def test_every_engine_module_is_the_compiled_one() -> None:
    interpreted = []
    for path in engine_modules(ROOT):
        name = path.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
        module = importlib.import_module(name)
        if not str(module.__file__).endswith(".so"):
            interpreted.append(name)
    assert not interpreted
    assert which_engine() == COMPILED  # what `pbem status` and /healthz report


def test_the_engine_reports_the_build_it_runs() -> None:
    """Pure Python is the reference the main suite runs; a checkout compiled in place
    (tools/compile_engine.py) would run stale compiled modules instead of edited sources."""
    expected = COMPILED if EXPECT_COMPILED else PURE
    assert which_engine() == expected, (
        "this checkout's engine is compiled in place: run `python tools/compile_engine.py "
        "--remove` for the pure Python reference")


def test_only_the_scenario_tooling_and_the_event_declarations_are_left_interpreted() -> None:
    modules = engine_modules(ROOT)
    assert "pbem/engine/rules.py" in modules and "pbem/engine/actions.py" in modules
    everything = [str(p.relative_to(ROOT)) for p in (ROOT / "pbem" / "engine").rglob("*.py")]
    left = sorted(set(everything) - set(modules))
    assert left == sorted(m for m in everything
                          if "/scenarios/" in m or m == "pbem/engine/event_kinds.py")


def test_the_build_is_compiled_only_when_every_compiled_module_loads_as_an_extension() -> None:
    names = [path.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
             for path in engine_modules(ROOT)]

    def loaded_from(extension: set[str]) -> Callable[[str], str | None]:
        return lambda name: (f"/x/{name}.cpython-311-x86_64-linux-gnu.so" if name in extension
                             else f"/x/{name}.py")

    assert build_of(ROOT, loaded_from(set(names))) == COMPILED
    assert build_of(ROOT, loaded_from(set())) == PURE
    assert build_of(ROOT, loaded_from({names[0]})) == (
        f"partly compiled (1 of {len(names)} modules)")
    assert build_of(ROOT, lambda name: None) == PURE  # a module that is not found is not compiled
