"""Compile the rules engine in place with mypyc for a deploy, or leave it pure Python.

    python tools/compile_engine.py            # compile pbem/engine where the package is
    python tools/compile_engine.py --check    # say which engine an installed `pbem` loads
    python tools/compile_engine.py --remove   # back to pure Python

The Dockerfile and render.yaml's build run it (docs/deploy.md, docs/compiled-engine.md). It
compiles when mypyc (it ships with mypy), setuptools, a C compiler and Python's headers are
there, and otherwise says what is missing and leaves pure Python: the exit status is 0 either
way, so a host without a compiler still deploys. A build that fails or does not load (say, the
compiler runs out of memory) is removed again, never left half done. The last line printed is
the outcome: `engine: compiled (…)` or `engine: pure Python (…)`.

A compiled module beside its `.py` shadows it: in a checkout you edit, run `--remove` (or
compile again) after changing the engine. The benchmarks compile a copy instead
(benchmarks/compiled.py), through `compile_in_place` here.
"""

from __future__ import annotations

import argparse
import importlib.machinery
import importlib.util
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
EXTENSIONS = tuple(importlib.machinery.EXTENSION_SUFFIXES)
# One greedy game at four seats on the freshly built engine: it imports every module and
# plays every phase, so a build that loads but breaks is caught here, not by the first player.
SMOKE_TEST = """
from pbem.engine.bots import greedy_bot, play_game
from pbem.engine.compiled import which_engine
state, actions = play_game(4, 7, greedy_bot)
assert state.phase == "over" and actions, "the smoke game did not finish"
print(which_engine())
"""
WHERE_PBEM = """
import importlib.util
spec = importlib.util.find_spec("pbem")
print(spec.submodule_search_locations[0] if spec and spec.submodule_search_locations else "")
"""
WHICH_ENGINE = "from pbem.engine.compiled import which_engine; print(which_engine())"

Runner = Callable[..., subprocess.CompletedProcess[str]]


class CompileFailed(Exception):
    """mypyc or the C compiler failed, or the result did not load and play."""


def layout(root: Path) -> ModuleType:
    """pbem/engine/compiled.py of the tree at `root`, loaded by path: the build's layout
    (which modules, the group's name) without importing the engine, which may be a stale or
    broken build until `remove_compiled` has run."""
    path = root / "pbem" / "engine" / "compiled.py"
    spec = importlib.util.spec_from_file_location("_pbem_engine_layout", path)
    assert spec is not None and spec.loader is not None, path
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def compiled_files(root: Path) -> list[Path]:
    """The extension modules a build leaves in `root`: one per engine module, and the
    group's shared library beside the package."""
    group = layout(root).GROUP
    found = [p for p in (root / "pbem" / "engine").rglob("*") if p.name.endswith(EXTENSIONS)]
    found += [p for p in root.glob(f"{group}__mypyc*") if p.name.endswith(EXTENSIONS)]
    return sorted(found)


def remove_compiled(root: Path) -> int:
    """Remove every compiled module from `root`; the engine is pure Python again."""
    files = compiled_files(root)
    for path in files:
        path.unlink()
    return len(files)


def c_compiler(environ: Mapping[str, str]) -> str:
    """The compiler setuptools will call: $CC, else the one Python was built with."""
    command = environ.get("CC") or str(sysconfig.get_config_var("CC") or "cc")
    words = shlex.split(command)
    return words[0] if words else "cc"


def missing_tool(environ: Mapping[str, str],
                 which: Callable[..., str | None] = shutil.which,
                 find_spec: Callable[[str], Any] = importlib.util.find_spec,
                 headers: Path | None = None) -> str | None:
    """What the build lacks here, in words, or None when everything is there."""
    if find_spec("mypyc") is None:
        return "mypyc is not installed (it comes with mypy: pip install mypy)"
    if find_spec("setuptools") is None:
        return "setuptools is not installed"
    compiler = c_compiler(environ)
    if which(compiler, path=environ.get("PATH", os.defpath)) is None:
        return f"no C compiler ({compiler} is not on the PATH)"
    header = headers or Path(sysconfig.get_paths()["include"]) / "Python.h"
    if not header.is_file():
        return f"no Python headers ({header} is missing)"
    return None


def setup_script(group: str) -> str:
    """The `setup.py` that mypyc builds with, run as `python -c`: its arguments are the
    build directory, then the modules."""
    return ("import os, sys\n"
            "from setuptools import setup\n"
            "from mypyc.build import mypycify\n"
            "build = sys.argv[1]\n"
            "setup(name='pbem-engine-compiled', py_modules=[],\n"
            f"      ext_modules=mypycify(sys.argv[2:], opt_level='3', group_name={group!r},\n"
            "                           target_dir=os.path.join(build, 'c')),\n"
            "      script_args=['build_ext', '--inplace', '--build-temp',\n"
            "                   os.path.join(build, 'temp'), '--build-lib',\n"
            "                   os.path.join(build, 'lib'), '-j', str(os.cpu_count() or 1)])\n")


def compile_in_place(root: Path, run: Runner = subprocess.run,
                     environ: Mapping[str, str] | None = None) -> int:
    """Compile the engine of the tree at `root` beside its sources and check that it loads
    and plays; returns the number of modules. On any failure nothing compiled is left and
    CompileFailed says why."""
    environ = dict(os.environ if environ is None else environ)
    remove_compiled(root)
    plan = layout(root)
    modules = plan.compiled_sources(root)
    with tempfile.TemporaryDirectory(prefix="pbem-engine-build-") as build:
        # mypy's cache goes with the build, not into the tree.
        env = {**environ, "MYPY_CACHE_DIR": os.path.join(build, "mypy-cache")}
        done = run([sys.executable, "-c", setup_script(plan.GROUP), build, *modules],
                   cwd=root, env=env, capture_output=True, text=True, check=False)
        if done.returncode != 0:
            remove_compiled(root)
            tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-15:])
            raise CompileFailed(f"mypyc failed (exit status {done.returncode}):\n{tail}")
    loads = run([sys.executable, "-c", SMOKE_TEST], cwd=root, capture_output=True, text=True,
                check=False, env={**environ, "PYTHONPATH": os.pathsep.join(
                    [str(root), *filter(None, [environ.get("PYTHONPATH")])])})
    if loads.returncode != 0 or loads.stdout.strip() != plan.COMPILED:
        remove_compiled(root)
        why = (loads.stderr.strip().splitlines() or [loads.stdout.strip()])[-1]
        raise CompileFailed(f"the compiled engine did not load and play: {why}")
    return len(modules)


def installed_engine(root: Path, run: Runner = subprocess.run,
                     environ: Mapping[str, str] | None = None) -> str | None:
    """Which engine `pbem` loads when started from elsewhere (as `pbem db-upgrade` and
    gunicorn are), if that `pbem` is this tree's; None if it is another's or none."""
    env = dict(os.environ if environ is None else environ)
    with tempfile.TemporaryDirectory(prefix="pbem-engine-check-") as elsewhere:
        where = run([sys.executable, "-c", WHERE_PBEM], cwd=elsewhere, env=env,
                    capture_output=True, text=True, check=False)
        location = where.stdout.strip()
        if where.returncode != 0 or not location or \
                Path(location).resolve() != (root / "pbem").resolve():
            return None
        which = run([sys.executable, "-c", WHICH_ENGINE], cwd=elsewhere, env=env,
                    capture_output=True, text=True, check=False)
    if which.returncode != 0:
        why = (which.stderr.strip().splitlines() or ["no output"])[-1]
        raise CompileFailed(f"the installed pbem does not load its compiled engine: {why}; "
                            "the shared library beside the package must be on the path: "
                            "pip install -e . --config-settings editable_mode=compat")
    return which.stdout.strip()


def check(root: Path, run: Runner = subprocess.run,
          environ: Mapping[str, str] | None = None) -> str:
    """The outcome line for the engine an installed `pbem` loads; a compiled engine it cannot
    load is removed (pure Python works wherever the package does)."""
    try:
        engine = installed_engine(root, run, environ)
    except CompileFailed as failed:
        remove_compiled(root)
        return f"engine: pure Python ({failed}; the compiled modules were removed)"
    if engine is None:
        return f"engine: not checked (the pbem this Python imports is not {root / 'pbem'})"
    return f"engine: {engine}"


def compile_engine(root: Path, run: Runner = subprocess.run,
                   environ: Mapping[str, str] | None = None,
                   which: Callable[..., str | None] = shutil.which,
                   find_spec: Callable[[str], Any] = importlib.util.find_spec,
                   headers: Path | None = None) -> str:
    """Compile if this machine can, else leave pure Python; the outcome line either way."""
    env = dict(os.environ if environ is None else environ)
    lacking = missing_tool(env, which, find_spec, headers)
    if lacking is not None:
        remove_compiled(root)
        return f"engine: pure Python ({lacking})"
    print(f"compiling the engine with mypyc in {root} (minutes) ...", flush=True)
    started = time.monotonic()
    try:
        count = compile_in_place(root, run, env)
    except CompileFailed as failed:
        return f"engine: pure Python ({failed})"
    minutes = (time.monotonic() - started) / 60
    if (root / ".git").exists():
        print("note: a checkout: an edited engine module runs its compiled version until you "
              "compile again or run `python tools/compile_engine.py --remove`", flush=True)
    outcome = check(root, run, env)
    if outcome.startswith("engine: pure Python"):
        return outcome
    return f"engine: compiled ({count} modules in {minutes:.1f} min)"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", type=Path, default=ROOT,
                        help="the directory that holds the pbem package (default: this checkout)")
    action = parser.add_mutually_exclusive_group()
    action.add_argument("--check", action="store_true",
                        help="say which engine an installed pbem loads (remove a broken build)")
    action.add_argument("--remove", action="store_true", help="remove the compiled modules")
    args = parser.parse_args(argv)
    root = args.root.resolve()
    if args.remove:
        print(f"engine: pure Python ({remove_compiled(root)} compiled files removed)")
    elif args.check:
        print(check(root))
    else:
        print(compile_engine(root), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
