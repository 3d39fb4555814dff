"""The optional compiled build (benchmarks/compiled.py) runs these same engine tests; this one
makes sure that run really exercised the compiled modules, not the pure Python beside them."""

from __future__ import annotations

import importlib
import os
from pathlib import Path

import pytest

import pbem.engine
from benchmarks.compiled import engine_modules

ROOT = Path(pbem.engine.__file__).resolve().parents[2]


@pytest.mark.skipif(os.environ.get("PBEM_EXPECT_COMPILED_ENGINE") != "1",
                    reason="only in the compiled build's run (benchmarks/compiled.py test)")
def test_every_engine_module_is_the_compiled_one() -> None:
    interpreted = []
    for path in engine_modules(ROOT):
        name = path.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
        module = importlib.import_module(name)
        if not str(module.__file__).endswith(".so"):
            interpreted.append(name)
    assert not interpreted


def test_only_the_scenario_tooling_and_the_event_declarations_are_left_interpreted() -> None:
    modules = engine_modules(ROOT)
    assert "pbem/engine/rules.py" in modules and "pbem/engine/actions.py" in modules
    everything = [str(p.relative_to(ROOT)) for p in (ROOT / "pbem" / "engine").rglob("*.py")]
    left = sorted(set(everything) - set(modules))
    assert left == sorted(m for m in everything
                          if "/scenarios/" in m or m == "pbem/engine/event_kinds.py")
