"""The web calls services and nothing below them for writing (issue 23, point 1): no view
commits or rolls back, none reaches the play path's persistence shortcuts, and
``blueprints(config)`` is the one list of blueprints the app registers."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from pbem.app import create_app
from pbem.web.blueprints import blueprints

WEB = Path(__file__).resolve().parent.parent / "pbem" / "web"
PBEM = WEB.parent
SHORTCUTS = {"LockedGame", "ActingSeat", "lock_for_step", "store_step", "load_locked"}


def attributes_called(path: Path) -> set[str]:
    return {node.func.attr for node in ast.walk(ast.parse(path.read_text()))
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)}


def names_of(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.alias):
            found.add(node.name.rsplit(".", 1)[-1])
        elif isinstance(node, ast.Attribute):
            found.add(node.attr)
        elif isinstance(node, ast.Name):
            found.add(node.id)
    return found


def test_no_view_commits_a_transaction() -> None:
    """A view's writes are a service's, committed in one transaction with what they cause."""
    committing = [path.relative_to(PBEM).as_posix() for path in sorted(WEB.rglob("*.py"))
                  if "commit" in attributes_called(path)]
    assert committing == []


def test_the_web_reaches_no_persistence_shortcut() -> None:
    reaching = {path.relative_to(PBEM).as_posix(): names_of(path) & SHORTCUTS
                for path in sorted(WEB.rglob("*.py")) if names_of(path) & SHORTCUTS}
    assert reaching == {}


def test_blueprints_are_registered_only_from_the_one_list() -> None:
    registering = [path.relative_to(PBEM).as_posix() for path in sorted(PBEM.rglob("*.py"))
                   if "register_blueprint" in attributes_called(path)]
    assert registering == ["app.py"]


@pytest.mark.parametrize("backend", ["dev", "console"])
def test_the_app_has_exactly_the_listed_blueprints(tmp_path: Path, backend: str) -> None:
    app = create_app({"TESTING": True, "SECRET_KEY": "test", "MAIL_BACKEND": backend,
                      "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'db.sqlite3'}"},
                     instance_path=tmp_path)
    assert list(app.blueprints.values()) == blueprints(app.config)
    assert ("dev_mailbox" in app.blueprints) == (backend == "dev")
