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


def test_the_scenario_tooling_is_all_that_is_left_interpreted() -> None:
    modules = engine_modules(ROOT)
    assert "pbem/engine/rules.py" in modules and "pbem/engine/actions.py" in modules
    assert not [m for m in modules if "/scenarios/" in m]
    everything = list((ROOT / "pbem" / "engine").rglob("*.py"))
    assert len(modules) == len([p for p in everything if "scenarios" not in p.parts])
