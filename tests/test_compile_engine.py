"""tools/compile_engine.py, the deploys' build step: the compiled engine where the machine can
build it, pure Python (and a build that goes on) where it cannot, never half of each.

The real compile takes minutes and runs in CI (benchmarks/compiled.py test, through the same
`compile_in_place`); here mypyc's and the smoke game's processes are stand-ins that leave
the files a build leaves, so each way out is shown on a copy of the engine's tree.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from tools import compile_engine
from tools.compile_engine import SMOKE_TEST, WHERE_PBEM, WHICH_ENGINE

REPO = Path(__file__).resolve().parent.parent
SCRIPT = REPO / "tools" / "compile_engine.py"
SUFFIX = ".cpython-311-x86_64-linux-gnu.so"


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A copy of the engine's sources, as a deploy's checkout holds them."""
    root = tmp_path / "app"
    shutil.copytree(REPO / "pbem" / "engine", root / "pbem" / "engine",
                    ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    shutil.copy(REPO / "pbem" / "__init__.py", root / "pbem" / "__init__.py")
    return root


def leave_a_build(root: Path) -> list[Path]:
    """The files mypyc's build leaves: an extension module per compiled module and the
    group's shared library beside the package."""
    files = [root / f"pbem_engine__mypyc{SUFFIX}"]
    for source in compile_engine.layout(root).compiled_sources(root):
        files.append(root / (source.removesuffix(".py") + SUFFIX))
    for path in files:
        path.write_bytes(b"\x7fELF")
    return files


def files_in(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob("*")
                  if p.is_file() and "__pycache__" not in p.parts)


class FakeProcesses:
    """Answers the processes the tool starts: mypyc's build, the smoke game, and the look at
    the installed pbem; `answers` maps each to (exit status, output)."""

    def __init__(self, root: Path, answers: dict[str, tuple[int, str]]) -> None:
        self.root = root
        self.answers = answers
        self.started: list[str] = []

    def __call__(self, args: list[str], **_: Any) -> subprocess.CompletedProcess[str]:
        code = args[2]
        step = {SMOKE_TEST: "smoke", WHERE_PBEM: "where", WHICH_ENGINE: "which"}.get(code, "mypyc")
        self.started.append(step)
        status, output = self.answers[step]
        if step == "mypyc":
            leave_a_build(self.root)  # even a failed build leaves some modules behind
        return subprocess.CompletedProcess(args, status, stdout=output if status == 0 else "",
                                           stderr="" if status == 0 else output)


def has(*tools: str) -> Callable[..., str | None]:
    return lambda name, path=None: f"/usr/bin/{name}" if name in tools else None


def compile_with(root: Path, run: FakeProcesses, compiler: str = "gcc",
                 headers: Path | None = None) -> str:
    return compile_engine.compile_engine(root, run=run, environ={"CC": compiler, "PATH": "/x"},
                                         which=has(compiler),
                                         headers=headers or Path(sys.executable))


def test_without_a_c_compiler_the_engine_stays_pure_python_and_the_build_goes_on(
        tree: Path, tmp_path: Path) -> None:
    """The real script in a process whose PATH holds no compiler: exit status 0, the reason
    printed, and a compiled engine left from an earlier build removed (it would be stale)."""
    before = files_in(tree)
    leave_a_build(tree)
    empty = tmp_path / "bin"
    empty.mkdir()
    done = subprocess.run([sys.executable, str(SCRIPT), "--root", str(tree)],
                          env={"PATH": str(empty), "CC": "cc"}, capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[-1] == "engine: pure Python (no C compiler (cc is not on " \
                                           "the PATH))"
    assert files_in(tree) == before


def test_without_mypyc_or_python_headers_the_engine_stays_pure_python(tree: Path) -> None:
    nothing_runs = FakeProcesses(tree, {})
    no_mypyc = compile_engine.compile_engine(
        tree, run=nothing_runs, environ={"PATH": "/x"}, which=has("gcc", "cc"),
        find_spec=lambda name: None if name == "mypyc" else object())
    assert no_mypyc == "engine: pure Python (mypyc is not installed (it comes with mypy: " \
                       "pip install mypy))"
    no_headers = compile_with(tree, nothing_runs, headers=tree / "Python.h")
    assert no_headers == f"engine: pure Python (no Python headers ({tree / 'Python.h'} is " \
                         "missing))"
    assert nothing_runs.started == []


def test_a_build_that_fails_is_removed_and_says_why(tree: Path) -> None:
    before = files_in(tree)
    run = FakeProcesses(tree, {"mypyc": (1, "gcc: fatal error: Killed signal terminated "
                                            "program cc1")})
    outcome = compile_with(tree, run)
    assert outcome.startswith("engine: pure Python (mypyc failed (exit status 1):")
    assert outcome.endswith("Killed signal terminated program cc1)")
    assert files_in(tree) == before


def test_a_build_that_does_not_load_and_play_is_removed(tree: Path) -> None:
    before = files_in(tree)
    run = FakeProcesses(tree, {"mypyc": (0, ""), "smoke": (1, "ImportError: undefined symbol")})
    outcome = compile_with(tree, run)
    assert outcome == "engine: pure Python (the compiled engine did not load and play: " \
                      "ImportError: undefined symbol)"
    assert files_in(tree) == before


def test_a_build_the_installed_pbem_cannot_load_is_removed(tree: Path) -> None:
    """The smoke game ran with the tree on the path; `pbem db-upgrade` and gunicorn start from
    elsewhere, through the install: if that cannot load the build, pure Python it is."""
    before = files_in(tree)
    run = FakeProcesses(tree, {"mypyc": (0, ""), "smoke": (0, "compiled\n"),
                               "where": (0, f"{tree / 'pbem'}\n"),
                               "which": (1, "ModuleNotFoundError: No module named "
                                            "'pbem_engine__mypyc'")})
    outcome = compile_with(tree, run)
    assert outcome.startswith("engine: pure Python (the installed pbem does not load its "
                              "compiled engine: ModuleNotFoundError")
    assert "pip install -e . --config-settings editable_mode=compat" in outcome
    assert files_in(tree) == before


def test_a_build_that_loads_and_plays_stays(tree: Path) -> None:
    run = FakeProcesses(tree, {"mypyc": (0, ""), "smoke": (0, "compiled\n"),
                               "where": (0, f"{tree / 'pbem'}\n"), "which": (0, "compiled\n")})
    outcome = compile_with(tree, run)
    count = len(compile_engine.layout(tree).compiled_sources(tree))
    assert outcome.startswith(f"engine: compiled ({count} modules in ")
    assert run.started == ["mypyc", "smoke", "where", "which"]
    assert set(compile_engine.compiled_files(tree)) == set(leave_a_build(tree))


def test_a_build_for_another_install_is_kept_unchecked(tree: Path) -> None:
    """The Dockerfile compiles in a stage of its own, where no pbem is installed; the image's
    final stage checks the result with --check."""
    run = FakeProcesses(tree, {"mypyc": (0, ""), "smoke": (0, "compiled\n"), "where": (0, "\n")})
    assert compile_with(tree, run).startswith("engine: compiled (")
    assert compile_engine.check(tree, run=run, environ={}) == (
        f"engine: not checked (the pbem this Python imports is not {tree / 'pbem'})")


def test_remove_returns_to_pure_python(tree: Path) -> None:
    before = files_in(tree)
    leave_a_build(tree)
    done = subprocess.run([sys.executable, str(SCRIPT), "--root", str(tree), "--remove"],
                          capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    count = len(compile_engine.layout(tree).compiled_sources(tree)) + 1
    assert done.stdout == f"engine: pure Python ({count} compiled files removed)\n"
    assert files_in(tree) == before


def test_the_compiler_is_the_one_setuptools_calls() -> None:
    assert compile_engine.c_compiler({"CC": "ccache clang -fPIC"}) == "ccache"
    assert compile_engine.c_compiler({"CC": "/opt/gcc/bin/gcc"}) == "/opt/gcc/bin/gcc"
    assert compile_engine.c_compiler({}) != ""  # the compiler Python was built with


def test_check_asks_the_installed_pbem_from_another_directory() -> None:
    """The real look, on this checkout (installed editable by the test setup): its engine is
    the pure Python one the suite tests."""
    done = subprocess.run([sys.executable, str(SCRIPT), "--check"], capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "engine: pure Python\n"
