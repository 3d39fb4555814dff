"""Submits racing on the same version: exactly one applies, the others are told it is stale.

SQLite runs on the session's file database with a long busy timeout (writers queue on the
database lock); PostgreSQL queues them on the game row's FOR UPDATE lock."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from flask import Flask

from .conftest import auth, fresh, link, snapshot, start

THREADS = 8


def test_racing_submits_of_one_version_apply_once(
    server: Flask, make_app: Callable[..., Flask], database_kind: str
) -> None:
    game = start(2)
    public_id, token = fresh(game.id).public_id, link(game.id, 0)
    options: dict[str, Any] = {"pool_pre_ping": True, "pool_size": THREADS + 2}
    if database_kind == "sqlite":
        options = {"connect_args": {"timeout": 30}}
    racing = make_app(API_RATE_LIMIT=0, SQLALCHEMY_ENGINE_OPTIONS=options)
    barrier = threading.Barrier(THREADS)
    statuses: list[int] = []
    bodies: list[dict[str, Any]] = []
    lock = threading.Lock()

    def submit() -> None:
        client = racing.test_client()
        barrier.wait()
        response = client.post(f"/api/games/{public_id}/actions", headers=auth(token),
                               json={"version": 1, "notation": "dock 1 solar_converter"})
        with lock:
            statuses.append(response.status_code)
            bodies.append(response.get_json())

    threads = [threading.Thread(target=submit) for _ in range(THREADS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=120)

    assert sorted(statuses) == [200] + [409] * (THREADS - 1), bodies
    assert all(b["current_version"] == 2 for b in bodies if b.get("error") == "stale")
    after = snapshot(game.id)
    assert after["version"] == 2
    assert [step["notation"] for step in after["turn_steps"]] == ["dock 1 solar_converter"]
