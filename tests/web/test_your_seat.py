"""The turn page's "Your seat" section: vacation, mail settings and "I'm back". Each is a plain
form with the CSRF token and the signed form token; a saved form redirects (303); a refusal
shows the page again with a sentence, and changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from flask.testing import FlaskClient
from sqlalchemy import select

from pbem.extensions import db
from pbem.models import Outbox
from tests.web.conftest import EMAILS, Table, choices, fresh, hidden, post_move, snapshot

pytestmark = pytest.mark.quiet_hours  # .ci/run runs it again at five hours of the day


def _seat_state(table: Table, seat: int = 0) -> dict[str, Any]:
    game = fresh(table.id)
    s = game.seat(seat)
    return {**snapshot(table.id), "seat": (
        s.notify, s.timezone, s.quiet_start, s.quiet_end, s.absent, s.consecutive_timeouts,
        s.vacation_until, s.vacation_days_used)}


def _post(client: FlaskClient, link: str, what: str, page: str | None = None,
          **fields: Any) -> Any:
    """Post a "Your seat" form as a browser would (tokens read from the page)."""
    page = page if page is not None else client.get(f"/play/{link}").get_data(as_text=True)
    return client.post(f"/play/{link}/{what}", data={
        "csrf_token": hidden(page, "csrf_token"), "form_token": hidden(page, "form_token"),
        **fields})


def _settings(**changes: Any) -> dict[str, Any]:
    return {"notify": "digest", "timezone": "Europe/Lisbon", "quiet_start": "23",
            "quiet_end": "7", **changes}


def _mark_absent(table: Table, seat: int = 0, missed: int = 3) -> None:
    game = fresh(table.id)
    game.seat(seat).absent = True
    game.seat(seat).consecutive_timeouts = missed
    db.session.commit()


def test_the_section_is_collapsed_at_the_bottom_with_its_forms(
        client: FlaskClient, table: Table) -> None:
    page = client.get(f"/play/{table.links[1]}").get_data(as_text=True)
    section = page[page.index('<details class="your-seat" id="your-seat">'):]
    assert section.index("</details>") < section.index('class="page-links"')
    assert "14 of 14 days left" in section
    for action in ("vacation", "settings", "notices", "notices/options"):  # chat: issue 27
        assert f'action="/play/{table.links[1]}/{action}"' in section
    assert section.count('name="csrf_token"') == 4 and section.count('name="form_token"') == 4
    assert 'value="every_turn" checked' in section and 'value="UTC"' in section
    assert '<option value="22" selected>22:00</option>' in section
    assert "marked absent" not in page


def test_a_vacation_is_taken_and_shown_in_the_players_time_zone(
        client: FlaskClient, table: Table) -> None:
    game = fresh(table.id)
    game.seat(1).timezone = "Asia/Tokyo"
    db.session.commit()
    before = fresh(table.id).version
    response = _post(client, table.links[1], "vacation", days="3")
    assert response.status_code == 303
    assert response.headers["Location"].endswith(f"/play/{table.links[1]}?done=vacation")
    seat = fresh(table.id).seat(1)
    assert seat.vacation_days_used == 3 and seat.vacation_until is not None
    assert fresh(table.id).version == before + 1
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Vacation saved." in page and "11 of 14 days left" in page
    assert "You are on vacation until" in page and "(Asia/Tokyo)" in page
    told = {m.to_addr for m in db.session.scalars(select(Outbox).where(
        Outbox.kind == "vacation"))}
    assert told == {EMAILS[0], EMAILS[2]}


def test_a_vacation_past_the_allowance_is_refused_and_changes_nothing(
        client: FlaskClient, table: Table) -> None:
    before = _seat_state(table)
    for days, status, sentence in (("15", 400, "Only 14 day(s) of vacation are left"),
                                   ("0", 400, "A vacation lasts at least one day."),
                                   ("soon", 400, "Days off must be a whole number.")):
        response = _post(client, table.links[0], "vacation", days=days)
        page = response.get_data(as_text=True)
        assert response.status_code == status
        assert "No vacation was taken." in page and sentence in page
        assert '<details class="your-seat" id="your-seat" open>' in page
        assert _seat_state(table) == before


def test_a_vacation_form_sent_twice_spends_the_days_once(
        client: FlaskClient, table: Table) -> None:
    page = client.get(f"/play/{table.links[0]}").get_data(as_text=True)
    assert _post(client, table.links[0], "vacation", page, days="2").status_code == 303
    after_first = _seat_state(table)
    again = _post(client, table.links[0], "vacation", page, days="2")
    assert again.status_code == 409
    assert "Here is the game now." in again.get_data(as_text=True)
    assert _seat_state(table) == after_first
    assert after_first["seat"][-1] == 2


def test_mail_settings_are_saved(client: FlaskClient, table: Table) -> None:
    response = _post(client, table.links[2], "settings", **_settings())
    assert response.status_code == 303
    seat = fresh(table.id).seat(2)
    assert (seat.notify, seat.timezone, seat.quiet_start, seat.quiet_end) == (
        "digest", "Europe/Lisbon", 23 * 60, 7 * 60)
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Settings saved." in page
    assert 'value="digest" checked' in page and 'value="Europe/Lisbon"' in page
    assert '<option value="23" selected>23:00</option>' in page


def test_bad_mail_settings_are_refused_with_a_sentence_and_change_nothing(
        client: FlaskClient, table: Table) -> None:
    before = _seat_state(table)
    for changes, sentence in (
            ({"timezone": "Atlantis/Capital"}, "Unknown timezone"),
            ({"timezone": ""}, "Enter a time zone such as Europe/Lisbon."),
            ({"notify": "never"}, "every turn, only my turn or a daily digest"),
            ({"quiet_start": "24"}, "a whole hour from 0 to 23"),
            ({"quiet_end": "late"}, "Quiet hours are whole hours.")):
        response = _post(client, table.links[0], "settings", **_settings(**changes))
        page = response.get_data(as_text=True)
        assert response.status_code == 400, changes
        assert "Nothing was saved." in page and sentence in page
        assert _seat_state(table) == before


def test_settings_need_the_csrf_token_and_the_seats_own_form_token(
        client: FlaskClient, table: Table) -> None:
    before = _seat_state(table)
    ana = client.get(f"/play/{table.links[0]}").get_data(as_text=True)
    cy = client.get(f"/play/{table.links[2]}").get_data(as_text=True)
    no_csrf = client.post(f"/play/{table.links[0]}/settings",
                          data={"form_token": hidden(ana, "form_token"), **_settings()})
    assert no_csrf.status_code == 400
    other_seat = client.post(f"/play/{table.links[0]}/settings", data={
        "csrf_token": hidden(ana, "csrf_token"), "form_token": hidden(cy, "form_token"),
        **_settings()})
    assert other_seat.status_code == 403
    forged = client.post(f"/play/{table.links[0]}/vacation", data={
        "csrf_token": hidden(ana, "csrf_token"), "form_token": "forged", "days": "2"})
    assert forged.status_code == 401
    assert _seat_state(table) == before


def test_an_absent_player_sees_the_banner_and_comes_back(
        client: FlaskClient, table: Table) -> None:
    _mark_absent(table, 0, missed=3)
    page = client.get(f"/play/{table.links[0]}").get_data(as_text=True)
    assert ("You are marked absent after 3 missed turns; the autopilot plays for you."
            in page)
    assert page.index("marked absent") < page.index("The board")
    assert f'action="/play/{table.links[0]}/back"' in page
    assert "marked absent" not in client.get(f"/play/{table.links[1]}").get_data(as_text=True)
    response = _post(client, table.links[0], "back", page)
    assert response.status_code == 303
    seat = fresh(table.id).seat(0)
    assert not seat.absent and seat.consecutive_timeouts == 0
    again = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Welcome back." in again and "marked absent" not in again


def test_im_back_when_not_absent_is_refused_and_changes_nothing(
        client: FlaskClient, table: Table) -> None:
    _mark_absent(table, 0)
    page = client.get(f"/play/{table.links[0]}").get_data(as_text=True)
    assert _post(client, table.links[0], "back", page).status_code == 303
    before = _seat_state(table)
    response = _post(client, table.links[0], "back", page)  # the same form, again
    assert response.status_code == 403
    assert "You are not marked absent" in response.get_data(as_text=True)
    assert _seat_state(table) == before


def test_saving_settings_never_makes_the_active_players_form_out_of_date(
        client: FlaskClient, table: Table) -> None:
    """Issue #13: settings bumped the game's version, so any player could block the one whose
    turn it is by toggling theirs. Only a change of the game's state stales a form."""
    ana = client.get(f"/play/{table.links[0]}").get_data(as_text=True)  # Ana's form is open
    version = fresh(table.id).version
    for notify in ("digest", "my_turn", "every_turn"):  # Cy toggles his settings meanwhile
        assert _post(client, table.links[2], "settings", **_settings(notify=notify)) \
            .status_code == 303
    assert fresh(table.id).version == version
    moved = post_move(client, table.links[0], choices(ana)[0], ana)
    assert moved.status_code == 303, moved.get_data(as_text=True)[:500]
    assert fresh(table.id).version > version
