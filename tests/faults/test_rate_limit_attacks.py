"""The rate limits against a live gunicorn: one worker (counters live in its memory, the
default storage), game creation limited to 3 an hour, seat-link pages to 1,000 a minute."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from .conftest import Browser, Figures, Target, attacked
from .test_attacks import _create_form

pytestmark = [pytest.mark.faults, pytest.mark.slow]

LIMIT = 3


@pytest.fixture(scope="module")
def limited(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Target]:
    with attacked(tmp_path_factory.mktemp("limits"), workers=1, env={
            "NEW_GAME_RATE_LIMIT": str(LIMIT), "NEW_GAME_RATE_WINDOW": "3600",
            "TOKEN_RATE_LIMIT": "1000", "TOKEN_RATE_WINDOW": "60"}) as found:
        yield found


def test_requests_in_other_buckets_do_not_reset_the_creation_limit(
        limited: Target, figures: Callable[[str], Figures]) -> None:
    """The old limiter's one window for every bucket restarted whenever a request of a
    bucket with another window came: a seat page between two creations reset the count."""
    row = figures("creation limit, a seat page between tries (bucket reset)")
    browser = Browser(limited.live.base)
    before = limited.count("games")
    for attempt in range(LIMIT + 12):
        status, _ = browser.open("GET", f"/play/{limited.links[0]}")  # another bucket
        assert status == 200
        form = _create_form(browser.csrf(), "host@example.net", "ana@example.net")
        status, page = browser.open("POST", "/games/new", form,
                                    {"Content-Type": "application/x-www-form-urlencoded"})
        if attempt < LIMIT:
            assert status == 303, page[:500]
            continue
        row.answered(status)
        row.through += status == 303
    assert limited.count("games") - before == LIMIT + row.through
    assert "Too many requests" in page
    row.assert_targets()


def test_a_made_up_forwarded_address_does_not_escape_the_limit(
        limited: Target, figures: Callable[[str], Figures]) -> None:
    """PROXY_HOPS is 0 here (not behind a proxy): X-Forwarded-For is not the client."""
    row = figures("creation limit, a new X-Forwarded-For each try (no proxy)")
    browser = Browser(limited.live.base)
    for _ in range(LIMIT + 1):  # use up this address's allowance (if a test before did not)
        status, _ = browser.open("POST", "/games/new", _create_form(
            browser.csrf(), "host@example.net", "ana@example.net"),
            {"Content-Type": "application/x-www-form-urlencoded"})
        if status == 429:
            break
    assert status == 429
    before = limited.count("games")
    for n in range(10):
        form = _create_form(browser.csrf(), "host@example.net", "ana@example.net")
        status, page = browser.open("POST", "/games/new", form, {
            "Content-Type": "application/x-www-form-urlencoded",
            "X-Forwarded-For": f"198.51.100.{n + 1}"})
        row.answered(status)
        row.through += status == 303
    assert limited.count("games") - before == row.through
    row.assert_targets()
