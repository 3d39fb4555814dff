"""The engine's module constants are `Final` (docs/compiled-engine.md): the compiled build
reads a `Final` name as a C static, any other module name by a dict lookup at every use."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ENGINE = Path(__file__).resolve().parents[2] / "pbem" / "engine"
CONSTANT = re.compile(r"_?[A-Z][A-Z0-9_]*")


def _is_final(annotation: ast.expr | None) -> bool:
    if annotation is None:
        return False
    if isinstance(annotation, ast.Subscript):
        annotation = annotation.value
    return isinstance(annotation, ast.Name) and annotation.id == "Final"


def _not_final(path: Path) -> list[str]:
    found = []
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Assign):
            names = [t.id for t in node.targets if isinstance(t, ast.Name)]
            value = node.value
            if isinstance(value, ast.Call) and getattr(value.func, "id", "") == "TypeVar":
                continue
            if isinstance(value, ast.Name) and value.id[:1].isupper() and names == ["T"]:
                continue  # a short name for a class (`T = Territory`), not a constant
            found += [f"{path.name}:{node.lineno} {n}" for n in names if CONSTANT.fullmatch(n)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) \
                and CONSTANT.fullmatch(node.target.id) and not _is_final(node.annotation) \
                and "TypeAlias" not in ast.unparse(node.annotation):
            found.append(f"{path.name}:{node.lineno} {node.target.id}")
    return found


def test_every_module_constant_of_the_engine_is_final() -> None:
    modules = [p for p in ENGINE.rglob("*.py")
               if "scenarios" not in p.parts and p.name != "event_kinds.py"]
    missing = [line for p in sorted(modules) for line in _not_final(p)]
    assert not missing, "declare these Final (docs/compiled-engine.md): " + ", ".join(missing)
