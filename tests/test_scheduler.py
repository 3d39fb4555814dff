"""The tick runs every registered step, in order, and survives a failing one."""

from __future__ import annotations

from collections.abc import Iterator
from datetime import UTC

import pytest
from apscheduler.schedulers.background import BackgroundScheduler
from flask import Flask, current_app

from pbem import scheduler


@pytest.fixture(autouse=True)
def isolated_registry(request: pytest.FixtureRequest,
                      monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    if "app" in request.fixturenames:
        request.getfixturevalue("app")  # the factory registers the real steps: build it first
    monkeypatch.setattr(scheduler, "_steps", {})
    yield


def test_tick_runs_steps_in_registration_order_inside_the_app(app: Flask) -> None:
    seen: list[str] = []
    scheduler.register_step("mail", lambda: seen.append(f"mail:{current_app.name}"))
    scheduler.register_step("deadlines", lambda: seen.append("deadlines"))
    report = scheduler.tick(app)
    assert seen == ["mail:pbem", "deadlines"]
    assert report == scheduler.TickReport(ran=("mail", "deadlines"), failed=())


def test_a_failing_step_does_not_stop_the_others(app: Flask) -> None:
    seen: list[str] = []

    def broken() -> None:
        raise RuntimeError("boom")

    scheduler.register_step("broken", broken)
    scheduler.register_step("after", lambda: seen.append("after"))
    report = scheduler.tick(app)
    assert seen == ["after"]
    assert report.failed == ("broken",)


def test_a_name_cannot_be_taken_by_a_second_function() -> None:
    def step() -> None:
        return None

    scheduler.register_step("mail", step)
    scheduler.register_step("mail", step)
    assert scheduler.registered_steps() == ("mail",)
    with pytest.raises(ValueError, match="mail"):
        scheduler.register_step("mail", lambda: None)


def test_the_tick_job_is_utc_coalesced_and_never_dropped_as_late(app: Flask) -> None:
    sched = BackgroundScheduler(timezone=UTC)
    scheduler._add_tick_job(sched, app)
    (job,) = sched.get_jobs()
    assert job.coalesce is True
    assert job.misfire_grace_time is None
    assert job.trigger.interval.total_seconds() == scheduler.TICK_SECONDS
    assert str(sched.timezone) == "UTC"
