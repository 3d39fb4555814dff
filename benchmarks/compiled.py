"""The optional compiled engine: build it with mypyc, prove it plays the same, time it.

    python benchmarks/compiled.py build        # build/compiled/: a copy, its engine compiled
    python benchmarks/compiled.py test [PYTEST ARGS]   # tests/engine against the compiled engine
    python benchmarks/compiled.py speed [--games N] [--rounds N] [--seats N] [--before DIR]

Pure Python stays the reference: the source tree is never compiled in place (a stale
extension module beside an edited .py would silently shadow it). `build` copies the
checkout's files (those git tracks or would track) to `build/compiled/` and compiles there
every engine module but those of LEFT_INTERPRETED; `test` runs the engine's tests (the
invariants, the menu audit, the scenarios and the same-games hash among them) from that copy,
and one of them checks that the modules really are the compiled ones; `speed` alternates pure
and compiled runs of `selfplay.speed` (and another checkout's, `--before`: its pure Python, and
its compiled build once `build` was run there), one process each, and prints games/s side by
side with the median ratio of the back-to-back runs to the baseline. docs/compiled-engine.md
says more.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pbem.engine.compiled import GROUP, LEFT_INTERPRETED, compiled_sources  # noqa: E402
from tools.compile_engine import EXTENSIONS, CompileFailed, compile_in_place  # noqa: E402

TREE = ROOT / "build" / "compiled"
STAMP = TREE / ".sources-sha256"


def engine_modules(root: Path) -> list[str]:
    """The engine's modules mypyc compiles, as paths relative to `root`."""
    return compiled_sources(root)


def checkout_files() -> list[str]:
    out = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT,
                         check=True, capture_output=True).stdout.decode()
    return sorted(f for f in out.split("\0") if f and (ROOT / f).is_file())


def build(force: bool = False) -> Path:
    """Copy the checkout to build/compiled and compile its engine there. The copy is refreshed
    every time; the compiling (minutes) is skipped while the engine's sources are unchanged."""
    files = checkout_files()
    for name in files:
        target = TREE / name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(ROOT / name, target)
    digest = hashlib.sha256(repr(LEFT_INTERPRETED).encode())
    digest.update((ROOT / "tools" / "compile_engine.py").read_bytes())  # the recipe
    for name in files:
        if name.startswith("pbem/engine/"):
            digest.update(name.encode() + b"\0" + (ROOT / name).read_bytes())
    sha = digest.hexdigest()
    if not force and STAMP.exists() and STAMP.read_text() == sha and _compiled(TREE):
        print(f"compiled engine up to date in {TREE}", flush=True)
        return TREE
    modules = engine_modules(TREE)
    print(f"compiling {len(modules)} engine modules with mypyc into {TREE} ...", flush=True)
    try:
        compile_in_place(TREE)  # as the deploys do (tools/compile_engine.py), but strict
    except CompileFailed as failed:
        raise SystemExit(str(failed)) from failed
    if not _compiled(TREE):
        raise SystemExit("mypyc ran but the engine modules are not compiled")
    STAMP.write_text(sha)
    return TREE


def _compiled(tree: Path) -> bool:
    """Whether every module `engine_modules` names has its extension module in `tree`, and
    the group's shared library is there."""
    if not tree.exists() or not any(p.name.endswith(EXTENSIONS)
                                    for p in tree.glob(f"{GROUP}__mypyc*")):
        return False
    for module in engine_modules(tree):
        stem = Path(module).with_suffix("")
        siblings = (tree / stem.parent).glob(f"{stem.name}.*")
        if not any(p.name.endswith(EXTENSIONS) for p in siblings):
            return False
    return True


def _loads_compiled(tree: Path) -> bool:
    """Whether another checkout's build at `tree` loads a compiled engine: asked of that
    build itself, since its layout may predate this checkout's (another list of modules,
    another name for the shared library), so `_compiled`'s file check cannot judge it."""
    if not tree.exists():
        return False
    code = ("import importlib.machinery, pbem.engine.rules as r;"
            "print(r.__file__.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)))")
    out = subprocess.run([sys.executable, "-c", code], cwd=tree, capture_output=True,
                         text=True, env={**os.environ, "PYTHONPATH": str(tree)})
    return out.returncode == 0 and out.stdout.split()[-1:] == ["True"]


def test(pytest_args: list[str]) -> int:
    tree = build()
    env = {**os.environ, "PBEM_EXPECT_COMPILED_ENGINE": "1"}
    # From inside the copy, `pbem` is the copy's (pytest puts its root first on sys.path).
    args = [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "tests/engine",
            *pytest_args]
    return subprocess.run(args, cwd=tree, env=env).returncode


def speed(games: int, rounds: int, seats: int, before: Path | None = None) -> None:
    """Print games/s of greedy self-play: pure Python, compiled and (with `before`) another
    checkout's pure Python and, when its own `build` was made, its compiled build; one
    process per run, the runs of a round back to back. Each ratio is the median over the
    rounds of a run against the baseline of its own round: pure Python against the other
    checkout's (or itself), compiled against the other checkout's compiled build (or pure)."""
    tree = build()
    code = ("import sys; sys.path.insert(0, 'benchmarks'); from selfplay import speed;"
            f"g, d, _ = speed({seats}, {games}, {{'factions': %s}}); print(g)")
    where = {"pure": ROOT, "compiled": tree}
    against = {"pure": "pure", "compiled": "pure"}
    if before is not None:
        before = before.resolve()
        where = {"before": before, **where}
        against = {"before": "before", "pure": "before", "compiled": "pure"}
        if _loads_compiled(before / "build" / "compiled"):
            where = {"before": before, "pure": ROOT,
                     "before compiled": before / "build" / "compiled", "compiled": tree}
            against = {**against, "before compiled": "before compiled",
                       "compiled": "before compiled"}
    print(f"greedy self-play, {seats} seats, {games} games a run, CPU time, {rounds} rounds of "
          f"{' / '.join(where)} back to back")
    for label, factions in (("base game", "False"), ("Factions", "True")):
        runs: dict[str, list[float]] = {name: [] for name in where}
        for _ in range(rounds):
            for name, path in where.items():
                out = subprocess.run([sys.executable, "-c", code % factions], cwd=path,
                                     check=True, capture_output=True, text=True,
                                     env={**os.environ, "PYTHONPATH": str(path)}).stdout
                runs[name].append(float(out.split()[-1]))
        cells = []
        for name, values in runs.items():
            base = runs[against[name]]
            ratios = sorted(v / b for v, b in zip(values, base, strict=True))
            cells.append(f"{name} {min(values):5.1f}-{max(values):5.1f} "
                         f"(x{ratios[len(ratios) // 2]:.2f})")
        print(f"{label:9} games/s: " + "   ".join(cells), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    b = sub.add_parser("build")
    b.add_argument("--force", action="store_true")
    sub.add_parser("test", help="further arguments go to pytest")
    s = sub.add_parser("speed")
    s.add_argument("--games", type=int, default=60)
    s.add_argument("--rounds", type=int, default=3)
    s.add_argument("--seats", type=int, default=4)
    s.add_argument("--before", type=Path, help="another checkout, timed as the baseline")
    args, pytest_args = parser.parse_known_args()
    if pytest_args and args.command != "test":
        parser.error(f"unrecognized arguments: {' '.join(pytest_args)}")
    if args.command == "build":
        build(args.force)
    elif args.command == "test":
        raise SystemExit(test(pytest_args))
    else:
        speed(args.games, args.rounds, args.seats, args.before)


if __name__ == "__main__":
    main()
