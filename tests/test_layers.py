"""No import cycle anywhere in pbem, and the layers of pyproject.toml hold.

grimp (import-linter's graph) counts every import: inside functions and under TYPE_CHECKING
too. A cycle is a strongly connected component of more than one module; each one found is
printed with a path that closes it, so the failure says which imports to break.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import grimp

REPO = Path(__file__).resolve().parent.parent
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"


def strongly_connected(graph: grimp.ImportGraph) -> list[list[str]]:
    """The components of more than one module (Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for root in sorted(graph.modules):
        if root in index:
            continue
        work = [(root, iter(sorted(graph.find_modules_directly_imported_by(root))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            module, imported = work[-1]
            step = next(imported, None)
            if step is not None:
                if step not in index:
                    index[step] = low[step] = len(index)
                    stack.append(step)
                    on_stack.add(step)
                    work.append((step, iter(sorted(graph.find_modules_directly_imported_by(step)))))
                elif step in on_stack:
                    low[module] = min(low[module], index[step])
                continue
            work.pop()
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[module])
            if low[module] == index[module]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == module:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def closing_path(graph: grimp.ImportGraph, component: list[str]) -> str:
    """One cycle through the component's first module: "a -> b -> ... -> a"."""
    start = component[0]
    for imported in sorted(graph.find_modules_directly_imported_by(start)):
        if imported in component:
            back = graph.find_shortest_chain(importer=imported, imported=start)
            if back is not None:
                return " -> ".join((start, *back))
    return ", ".join(component)


def test_there_is_no_import_cycle() -> None:
    graph = grimp.build_graph("pbem")
    cycles = [closing_path(graph, component) for component in strongly_connected(graph)]
    assert cycles == [], "import cycles:\n" + "\n".join(cycles)


def test_the_finder_sees_a_cycle_made_inside_a_function() -> None:
    graph = grimp.ImportGraph()
    for name in ("pkg", "pkg.a", "pkg.b", "pkg.c"):
        graph.add_module(name)
    graph.add_import(importer="pkg.a", imported="pkg.b")
    graph.add_import(importer="pkg.b", imported="pkg.c")
    graph.add_import(importer="pkg.c", imported="pkg.a")  # e.g. a lazy import in a function
    graph.add_import(importer="pkg.a", imported="pkg")
    assert strongly_connected(graph) == [["pkg.a", "pkg.b", "pkg.c"]]
    assert closing_path(graph, ["pkg.a", "pkg.b", "pkg.c"]) == "pkg.a -> pkg.b -> pkg.c -> pkg.a"


def test_the_layers_contract_is_kept() -> None:
    result = subprocess.run([str(LINT_IMPORTS)], capture_output=True, text=True, cwd=REPO,
                            timeout=300, check=False)
    assert result.returncode == 0, result.stdout + result.stderr
