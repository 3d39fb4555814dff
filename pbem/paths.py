"""Where the top-level ``templates/`` and ``migrations/`` directories live.

They sit beside the ``pbem`` package in the checkout rather than inside it, so the web layer
and the schema history are easy to find. An editable install (and running from the checkout,
as gunicorn does on a PaaS) finds them next to the package. A plain ``pip install .`` copies
only the package into site-packages, so the current directory (the checkout root, where a
buildpack runs every process) is the fallback.
"""

from __future__ import annotations

from pathlib import Path

PACKAGE_DIR = Path(__file__).resolve().parent


def project_dir(name: str) -> Path:
    """Return the top-level directory ``name`` of the checkout (``templates``, ``migrations``)."""
    candidates = (PACKAGE_DIR.parent / name, Path.cwd() / name)
    for candidate in candidates:
        if candidate.is_dir():
            return candidate
    tried = ", ".join(str(c) for c in candidates)
    raise FileNotFoundError(f"pbem: cannot find the {name}/ directory (looked in {tried})")


def templates_dir() -> Path:
    """The Jinja templates directory."""
    return project_dir("templates")


def migrations_dir() -> Path:
    """The Alembic environment managed by Flask-Migrate."""
    return project_dir("migrations")
