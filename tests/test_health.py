"""``/healthz`` reports whether the database answers, and which rules engine runs."""

from __future__ import annotations

from pathlib import Path

import pytest
from flask.testing import FlaskClient

from pbem.engine.compiled import which_engine
from pbem.web.blueprints import health
from tests.conftest import build_app


def test_healthz_is_ok_when_the_database_answers(client: FlaskClient) -> None:
    response = client.get("/healthz")
    assert response.status_code == 200
    assert response.get_json() == {"status": "ok", "engine": "pure Python"}


def test_healthz_names_the_engine_the_process_runs(client: FlaskClient,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """A deploy's first check shows whether its build compiled the engine (the compiled
    build's own run checks that `which_engine` then says so: tests/engine)."""
    assert client.get("/healthz").get_json()["engine"] == which_engine() == "pure Python"
    monkeypatch.setattr(health, "which_engine", lambda: "compiled")
    assert client.get("/healthz").get_json() == {"status": "ok", "engine": "compiled"}


def test_healthz_is_503_when_the_sqlite_file_cannot_be_opened(tmp_path: Path) -> None:
    missing_dir = tmp_path / "no-such-dir" / "pbem.sqlite3"
    app = build_app(f"sqlite:///{missing_dir}", tmp_path / "instance")
    response = app.test_client().get("/healthz")
    assert response.status_code == 503
    assert response.get_json()["status"] == "unavailable"
    assert response.get_json()["engine"] == "pure Python"


def test_healthz_is_503_when_postgresql_refuses_connections(tmp_path: Path) -> None:
    url = "postgresql+psycopg://postgres@127.0.0.1:1/test?connect_timeout=2"
    app = build_app(url, tmp_path / "instance")
    response = app.test_client().get("/healthz")
    assert response.status_code == 503
    assert response.get_json()["status"] == "unavailable"
