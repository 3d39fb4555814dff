"""``POST /tasks/tick``: a bearer token wakes the scheduler; no token configured, no route."""

from __future__ import annotations

import pytest
from flask import Flask

from pbem import scheduler
from tests.conftest import MakeApp

pytestmark = pytest.mark.quiet_hours  # .ci/run runs it again at five hours of the day


def probe(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Replace the registered steps (after the app registered its own) by one that records."""
    calls: list[str] = []
    monkeypatch.setattr(scheduler, "_steps", {"probe": lambda: calls.append("probe")})
    return calls


def test_the_tick_runs_deadlines_before_mail(app: Flask) -> None:
    steps = scheduler.registered_steps()
    assert steps.index("deadlines") < steps.index("mail")


def test_without_a_tick_token_there_is_no_route(
    app: Flask, monkeypatch: pytest.MonkeyPatch
) -> None:
    seen = probe(monkeypatch)
    response = app.test_client().post("/tasks/tick", headers={"Authorization": "Bearer x"})
    assert response.status_code == 404
    assert seen == []


def test_a_wrong_token_is_refused(make_app: MakeApp, monkeypatch: pytest.MonkeyPatch) -> None:
    client = make_app(TICK_TOKEN="s3cret").test_client()
    seen = probe(monkeypatch)
    for header in ({}, {"Authorization": "Bearer nope"}, {"Authorization": "Basic s3cret"}):
        assert client.post("/tasks/tick", headers=header).status_code == 401
    assert seen == []


def test_the_right_token_runs_one_tick_without_a_csrf_token(
    make_app: MakeApp, monkeypatch: pytest.MonkeyPatch
) -> None:
    app = make_app(TICK_TOKEN="s3cret", WTF_CSRF_ENABLED=True)
    seen = probe(monkeypatch)
    response = app.test_client().post("/tasks/tick",
                                      headers={"Authorization": "Bearer s3cret"})
    assert response.status_code == 200
    assert response.get_json() == {"status": "ok", "ran": ["probe"], "failed": []}
    assert seen == ["probe"]


def test_get_is_not_allowed(make_app: MakeApp) -> None:
    client = make_app(TICK_TOKEN="s3cret").test_client()
    assert client.get("/tasks/tick", headers={"Authorization": "Bearer s3cret"}).status_code \
        == 405
