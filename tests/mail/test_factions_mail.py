"""Issue #7 (and the mail side of #5, #8): real deadlines, the autopilot said, the Factions
mails, the daily digest, and no secret in any mail of many Factions games."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any
from zoneinfo import ZoneInfo

import pytest
import sqlalchemy as sa
from flask import Flask

from pbem import tokens
from pbem.engine import GameState, awaited
from pbem.engine.bots import greedy_bot, random_bot, redacted
from pbem.extensions import db
from pbem.mail.outbound import compose, decisions, links
from pbem.mail.outbound.digest import send_digests
from pbem.models.deadline import TIMEOUT, Deadline
from pbem.models.game import Game
from pbem.models.outbox import Outbox
from pbem.scheduler import deadlines
from pbem.services import play
from pbem.words import describe, when
from pbem.words.glossary import FACTIONS, agenda, card_name
from tests.conftest import MakeApp
from tests.mail.conftest import new_game

FACTIONS_ON: dict[str, Any] = {}  # the engine's defaults: Factions on
THREE = [("Ana", "ana@example.org"), ("Ben", "ben@example.org"), ("Cy", "cy@example.org")]
T0 = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)


class Clock:
    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now


def mail_app(make_app: MakeApp, clock: Clock | None = None) -> Flask:
    extra = {"PBEM_CLOCK": clock} if clock is not None else {}
    return make_app(MAIL_BACKEND="dev", SERVER_NAME="pbem.test",
                    MAIL_MESSAGE_ID_DOMAIN="pbem.test", **extra)


def outbox(**where: Any) -> list[Outbox]:
    query = sa.select(Outbox).order_by(Outbox.id)
    for key, value in where.items():
        query = query.where(getattr(Outbox, key) == value)
    return list(db.session.scalars(query))


def play_step(game: Game, bot: Any = greedy_bot, salt: int = 0) -> None:
    db.session.refresh(game)
    state = GameState.from_json(game.state)
    seat = awaited(state)
    assert seat is not None
    play.play(game.id, seat, game.version, bot(redacted(state, seat), seat, [salt, state.step]))


def finish_draft(game: Game) -> None:
    while GameState.from_json(game.state).phase == "draft":
        play_step(game)


# -- 1. real deadlines ---------------------------------------------------------------------

def test_your_turn_shows_the_scheduled_deadline_in_the_players_zone(
    app: Flask, make_app: MakeApp
) -> None:
    clock = Clock(T0)
    with mail_app(make_app, clock).app_context():
        game = new_game(THREE, options=FACTIONS_ON)
        game.seat(2).timezone = "Europe/Lisbon"
        db.session.commit()
        first = outbox(kind="decision")[0]
        assert first.seat == 2 and "Thursday 3 December, 09:00 UTC, 48 hours from now" \
            in first.text_body  # created before the seat's zone was changed
        clock.now = T0 + timedelta(hours=5)
        play_step(game)  # Cy chooses: Ben's wait starts now
        ben = outbox(kind="decision", seat=1)[0]
        row = db.session.scalars(sa.select(Deadline).where(Deadline.kind == TIMEOUT)).one()
        assert row.seat == 1
        due = row.deadline_at.replace(tzinfo=UTC) if row.deadline_at.tzinfo is None \
            else row.deadline_at
        assert due == T0 + timedelta(hours=53)
        assert "Thursday 3 December, 14:00 UTC, 48 hours from now" in ben.text_body
        assert when.deadline_words(due, "Europe/Lisbon", clock.now) == (
            "Thursday 3 December, 14:00 WET, 48 hours from now")


def test_a_vacation_moves_the_mailed_deadline(app: Flask, make_app: MakeApp) -> None:
    clock = Clock(T0)
    with mail_app(make_app, clock).app_context():
        game = new_game(THREE, options=FACTIONS_ON)
        game.seat(1).vacation_until = T0 + timedelta(days=3)
        db.session.commit()
        play_step(game)
        ben = outbox(kind="decision", seat=1)[0]
        assert "Sunday 6 December, 09:00 UTC, 120 hours from now" in ben.text_body


def test_reminder_says_how_long_is_left(app: Flask, make_app: MakeApp) -> None:
    clock = Clock(T0)
    with mail_app(make_app, clock).app_context():
        game = new_game(THREE, options=FACTIONS_ON)
        mail = compose.reminder(game, game.seat(2), T0 + timedelta(hours=12))
        # the preheader line first (docs/mail.md), then the reminder itself
        assert mail.text.startswith("Reminder · 12 h left · your turn in round 1\n\n"
                                    "Cy, 12 hours left in Friday Frontier")
        db.session.rollback()


# -- 2. the autopilot is said ----------------------------------------------------------------

def test_a_timeout_is_told_to_the_others_and_to_the_late_player(
    app: Flask, make_app: MakeApp
) -> None:
    clock = Clock(T0)
    application = mail_app(make_app, clock)
    with application.app_context():
        new_game(THREE, options=FACTIONS_ON)
        clock.now = T0 + timedelta(hours=61)  # 48 h + 12 h grace have passed
        report = deadlines.sweep(application, clock.now)
        assert report.steps >= 1
        others = outbox(kind="others_turn", seat=0)
        assert others and others[-1].text_body.startswith(
            "Autopilot played for Cy · round 1 · Ben's turn now\n\n"  # the preheader first
            "Cy ran out of time; the autopilot played in Friday Frontier")
        assert "Cy chose " in others[-1].text_body
        late = outbox(kind="autopilot", seat=2)
        assert len(late) == 1
        body = late[0].text_body
        assert "your time ran out" in body and "You chose " in body and "Cy chose" not in body
        assert "/play/" in body and "marked absent" not in body
        ben_turn = outbox(kind="decision", seat=1)[-1].text_body
        assert "Cy ran out of time; the autopilot played for them:" in ben_turn


def test_an_absent_seat_is_told_so(app: Flask, make_app: MakeApp) -> None:
    clock = Clock(T0)
    application = mail_app(make_app, clock)
    with application.app_context():
        game = new_game(THREE, options=FACTIONS_ON,
                        timeout_policy={"absent_after": 1})
        clock.now = T0 + timedelta(hours=61)
        deadlines.sweep(application, clock.now)
        body = outbox(kind="autopilot", seat=2)[0].text_body
        assert "marked absent" in body and "host may also give your seat" in body
        assert "the autopilot keeps playing your turns" in body and "/play/" in body
        assert "Cy ran out of time and is now marked absent; the autopilot played" in \
            outbox(kind="others_turn", seat=0)[-1].text_body
        assert game.seat(2).absent


def test_an_absent_seat_gets_one_autopilot_mail_not_one_a_turn(
    app: Flask, make_app: MakeApp
) -> None:
    clock = Clock(T0)
    application = mail_app(make_app, clock)
    with application.app_context():
        game = new_game(THREE, options=FACTIONS_ON, timeout_policy={"absent_after": 1})
        clock.now = T0 + timedelta(hours=61)
        deadlines.sweep(application, clock.now)  # Cy's draft choice times out: absent
        assert game.seat(2).absent
        away_turns = 0
        for _ in range(400):
            db.session.refresh(game)
            seat = awaited(GameState.from_json(game.state))
            if seat == 2:
                deadlines.sweep(application, clock.now)  # an absent seat plays at once
                away_turns += 1
                if away_turns == 3:
                    break
            else:
                play_step(game)
        assert away_turns == 3
        assert len(outbox(kind="autopilot", seat=2)) == 1  # once, when marked absent
        others = [r.text_body for r in outbox(kind="others_turn", seat=1)]
        assert any(b.split("\n\n", 1)[0].startswith("Autopilot played for Cy · ")
                   and b.split("\n\n", 1)[1].startswith(
                       "Cy is away; the autopilot played in Friday Frontier")
                   for b in others)
        assert not any("Cy ran out of time;" in b for b in others)
        turns = [r.text_body for r in outbox(seat=0) if r.kind in ("your_turn", "decision")]
        assert any("Cy is away; the autopilot played for them:" in b for b in turns)


# -- 3. Factions in mail ---------------------------------------------------------------------

def test_invitation_lists_the_options_in_words(app: Flask, make_app: MakeApp) -> None:
    with mail_app(make_app).app_context():
        new_game(THREE, options={"new_gaia_rescue": "low"}, time_per_move_hours=24)
        body = outbox(kind="invitation")[0].text_body
        assert "Options: Factions on, New Gaia rescue on 1–3, 24 hours per move." in body
        assert "draft of Faction boards" in body
        new_game(THREE, options={"factions": False}, seed=8)
        assert "Options: base game (no Factions), 48 hours per move." in \
            outbox(kind="invitation")[-1].text_body


def test_the_draft_mail_offers_the_boards_with_their_effects_to_the_chooser_only(
    app: Flask, make_app: MakeApp
) -> None:
    with mail_app(make_app).app_context():
        game = new_game(THREE, options=FACTIONS_ON)
        offered = GameState.from_json(game.state).draft
        decision = outbox(kind="decision")
        assert [r.seat for r in decision] == [2]  # the last seat chooses first
        body = decision[0].text_body
        for fid in offered:
            assert f"Take {FACTIONS[fid].name}" in body
            assert FACTIONS[fid].owner in body
            assert f"?move=choose+{fid}" in body
        assert "after you: Ben, then Ana" in body
        for row in outbox():
            if row.seat != 2:
                for fid in offered:
                    assert FACTIONS[fid].name not in row.text_body


def test_the_draft_ends_with_seat_0s_your_turn_mail(app: Flask, make_app: MakeApp) -> None:
    with mail_app(make_app).app_context():
        game = new_game(THREE, options=FACTIONS_ON)
        finish_draft(game)  # seat 0 chooses last, then plays first: the awaited seat stays 0
        state = GameState.from_json(game.state)
        assert awaited(state) == 0 and state.turn.rolled
        mail = outbox(kind="your_turn", seat=0)
        assert len(mail) == 1
        dice = "  ".join(str(v) for v in state.turn.rolled)
        assert f"Your roll     {dice}" in mail[0].text_body
        assert "You chose " not in mail[0].text_body  # its own choice is not "since"


def test_your_turn_names_your_faction_and_your_own_agendas_only(
    app: Flask, make_app: MakeApp
) -> None:
    with mail_app(make_app).app_context():
        game = new_game(THREE, options=FACTIONS_ON)
        finish_draft(game)
        while outbox(kind="your_turn") == []:
            play_step(game)
        row = outbox(kind="your_turn")[0]
        state = GameState.from_json(game.state)
        mine = state.seats[row.seat]
        assert f"Faction       {FACTIONS[mine.faction].name} — " in row.text_body
        for aid in mine.agendas:
            assert f"{agenda(aid).name} (secret)" in row.text_body
        for i, other in enumerate(state.seats):
            if i != row.seat:
                for aid in other.agendas:
                    assert agenda(aid).name not in row.text_body
        assert "Factions      " in row.text_body


def test_a_multiverse_window_discard_gets_a_decision_mail() -> None:
    pending_events = [{"kind": "must_discard_agendas", "seat": 1, "count": 1,
                       "why": "multiverse_window"}]
    assert describe.describe(pending_events, describe.ReaderNames(["Ana", "Ben"], 1)) == [
        "You have to discard 1 face-down Agenda: the Multiverse Window is gone, so the limit "
        "is 3 Agendas (revealed ones count) again."]
    assert describe.describe_action({"kind": "discard_agenda", "index": 2}, [],
                                    ["six_ore", "low_roll"]) == "Discard your Agenda “Low Roll”"
    assert decisions.DECISIONS == ("draft", "discard_agendas")


NAMES = ["Ana", "Ben", "Cy"]


@pytest.mark.parametrize(("events", "sentence"), [
    ([{"kind": "chose_faction", "seat": 2, "faction": "corex_conglomerated"}],
     "Cy chose Corex Conglomerated."),
    ([{"kind": "docked", "seat": 0, "facility": "smugglers_alliance", "values": [5],
       "relic": None},
      {"kind": "docked", "seat": 0, "facility": "raiders_outpost", "values": [2, 3, 4],
       "relic": None},
      {"kind": "stole_card", "seat": 0, "victim": 1, "card": "booster_pod"}],
     "Ana docked 2 3 4 at the Raiders' Outpost."),
    ([{"kind": "docked", "seat": 1, "facility": "uranian_syndicate", "values": [3],
       "relic": None},
      {"kind": "colony_moved", "seat": 1, "owner": 0, "source": "lem_badlands",
       "target": "herbert_valley", "why": "uranian_syndicate"}],
     "Ben docked 3 at the Uranian Syndicate board and moved Ana's colony from Lem Badlands "
     "to Herbert Valley."),
    ([{"kind": "field_moved", "seat": 2, "field": "positron_field",
       "territory": "asimov_crater", "came_from": "lem_badlands", "why": "x"}],
     "Cy moved the Positron Field from Lem Badlands to Asimov Crater."),
    ([{"kind": "docked", "seat": 0, "facility": "orbital_market", "values": [2, 2],
       "relic": None},
      {"kind": "drew_agendas", "seat": 0, "count": 2},
      {"kind": "discarded_agenda", "seat": 0},
      {"kind": "kept_agendas", "seat": 0, "count": 3}],
     "Ana docked 2 2 at the Orbital Market, drew 2 Agendas, discarded a face-down Agenda and "
     "now holds 3 Agendas."),
    ([{"kind": "revealed_agenda", "seat": 1, "agenda": "six_ore", "half": "in_game",
       "auto": False}],
     "Ben revealed the Agenda “Six Ore” (Gain six or more ore in one turn) (+1 VP)."),
    ([{"kind": "used_card", "seat": 2, "card": "experimental_ftl_drive", "fuel": 2},
      {"kind": "card_token", "seat": 2, "card": "experimental_ftl_drive", "tokens": 2}],
     "Cy used Experimental FTL Drive for 2 fuel and put a token on the Experimental FTL "
     "Drive (2 of 3)."),
    ([{"kind": "discarded_card", "seat": 0, "card": "plasma_cannon"},
      {"kind": "shot", "seat": 0, "card": "plasma_cannon", "facility": "shipyard",
       "ships": ["B1"], "to": "stock"}],
     "Ana discarded Plasma Cannon and sent 1 ship at the Shipyard to the stock."),
    ([{"kind": "discarded_card", "seat": 1, "card": "multiverse_window"},
      {"kind": "revealed_agenda", "seat": 1, "agenda": "six_ore", "half": "in_game",
       "auto": False}],
     "Ben discarded Multiverse Window and revealed the Agenda “Six Ore”, scored through the "
     "Multiverse Window without meeting its condition (+1 VP)."),
    ([{"kind": "draft_ended", "left_out": ["scavenger_fleet"]}],
     "The Faction draft is over; the game begins."),
])
def test_factions_events_read_as_plain_english(events: list[dict[str, Any]],
                                               sentence: str) -> None:
    said = describe.describe(events, NAMES)
    assert sentence in said, said
    assert "Scavenger" not in " ".join(said)  # the left-out board is not named


def test_game_over_explains_every_point_and_offers_the_host_a_rematch(
    app: Flask, make_app: MakeApp
) -> None:
    players = [("Ana", "host@example.org"), ("Ben", "ben@example.org"),
               ("Cy", "cy@example.org")]
    with mail_app(make_app).app_context():
        game = new_game(players, options=FACTIONS_ON, seed=5)
        while game.status == "active":
            play_step(game)
        over = {r.seat: r.text_body for r in outbox(kind="game_over")}
        assert set(over) == {0, 1, 2}  # the host plays: no separate host mail
        body = over[1]
        assert "+ Agendas" in body and "Revealed Agendas" in body and "/replay" in body
        result = GameState.from_json(game.state).result
        assert result is not None
        for i, name in enumerate(NAMES):
            vp = result["scores"][i]
            won = " (winner)" if i in result["winners"] else ""
            assert (f"{name}{won}: {vp['total']} VP = {vp['colonies']} + {vp['territories']} + "
                    f"{vp['cards']} + {vp['positron']} + {vp['agendas']}") in body
            for aid in result["agendas"][i]:
                assert agenda(aid).name in body
        if result["tiebreak"]:
            assert "the tie was broken by most" in body or "they still share the win" in body
        assert "start the rematch" in over[0] and "rematch=" in over[0]
        assert "rematch=" not in over[1] and "rematch=" not in over[2]
        assert "Ask the host for a rematch" in over[1]


# -- 4. the daily digest -----------------------------------------------------------------------

@pytest.mark.quiet_hours
def test_a_digest_seat_gets_one_mail_a_day_at_its_morning(app: Flask, make_app: MakeApp) -> None:
    real_now = datetime.now(UTC)
    clock = Clock(real_now)
    with mail_app(make_app, clock).app_context():
        game = new_game(THREE, options=FACTIONS_ON)
        ana = game.seat(0)
        ana.notify = "digest"
        ana.timezone = "Asia/Tokyo"
        db.session.commit()
        finish_draft(game)
        for _ in range(30):
            play_step(game)
        assert outbox(kind="others_turn", seat=0) == []
        local = real_now.astimezone(ZoneInfo("Asia/Tokyo"))
        next_morning = datetime.combine(local.date() + timedelta(days=1),
                                        datetime.min.time().replace(hour=8),
                                        tzinfo=local.tzinfo)
        clock.now = next_morning - timedelta(hours=2)  # 06:00 local: quiet hours
        assert send_digests() == 0
        clock.now = next_morning + timedelta(minutes=1)
        assert send_digests() == 1
        assert send_digests() == 0  # idempotent: once per morning
        body = outbox(kind="digest")[0].text_body
        assert "since your last digest" in body and "Ben " in body and "Cy " in body
        clock.now += timedelta(days=1)
        assert send_digests() == 0  # nothing new: no mail
        play_step(game)
        play_step(game)
        clock.now += timedelta(days=1)
        assert send_digests() <= 1


# -- 5. no secret in any mail of many Factions games ----------------------------------------

TOKEN = re.compile(r"[A-Za-z0-9_-]{16,}")


def _secrets(game: Game, state: GameState) -> dict[int, set[str]]:
    """Per seat: what no mail to another seat may hold, as the state stands now."""
    out: dict[int, set[str]] = {}
    for seat in game.seats:
        i = seat.index
        words = {agenda(a).name for a in state.seats[i].agendas}
        words |= set(state.seats[i].agendas)
        if state.turn.pending and state.turn.pending.get("kind") == "draft" \
                and state.turn.pending.get("seat") == i:
            words |= {FACTIONS[f].name for f in state.draft}
        if seat.email:
            words.add(seat.email)
        out[i] = words
    return out


def _token_payloads(game: Game) -> dict[int, set[str]]:
    payload: dict[int, set[str]] = {}
    for seat in game.seats:
        marks = {tokens.make_seat_link(game, seat).split(".")[0],
                 tokens.make_unsubscribe_token(game.public_id, seat.index,
                                              seat.link_counter).split(".")[0]}
        marks |= {tokens.make_form_token(game.public_id, seat.index, v).split(".")[0]
                  for v in range(game.version + 2)}
        payload[seat.index] = marks
    return payload


@pytest.mark.parametrize("players", [2, *(pytest.param(n, marks=pytest.mark.slow)
                                         for n in (3, 4, 5))])
def test_no_mail_of_a_factions_game_shows_another_seats_secret(
    app: Flask, make_app: MakeApp, players: int
) -> None:
    people = [(n, f"{n.lower()}@example.org") for n in ["Ana", "Ben", "Cy", "Dee", "Eli"]]
    with mail_app(make_app).app_context():
        # A seed as long as production's (secrets.randbits), so its digits cannot turn up in
        # a Message-ID or a number in the text by chance.
        game = new_game(people[:players], options=FACTIONS_ON, seed=982_451_653_071 + players)
        seed_text = str(game.seed)
        checked = 0  # the id of the last outbox row checked
        for step in range(3000):
            db.session.refresh(game)
            state = GameState.from_json(game.state)
            secrets = _secrets(game, state)
            # The next three cards in order: with fewer left, one card's name is also the
            # name on a seat's own card (two copies of each card), which is no leak.
            deck = (", ".join(card_name(c) for c in state.deck[-3:])
                    if len(state.deck) >= 3 else "")
            new = db.session.scalars(sa.select(Outbox).where(Outbox.id > checked)
                                     .order_by(Outbox.id)).all()
            for row in new:
                blob = " ".join([row.subject, row.text_body, row.html_body or "",
                                 str(row.headers)])
                assert seed_text not in blob and (not deck or deck not in blob)
                for index, words in secrets.items():
                    if index == row.seat:
                        continue
                    for word in words:
                        assert word not in blob.replace(row.to_addr, ""), (
                            f"{row.kind} to seat {row.seat} shows seat {index}'s {word!r}")
                checked = row.id
            if game.status != "active":
                break
            bot = random_bot if step % 3 == 0 else greedy_bot
            play_step(game, bot, salt=players)
        assert game.status == "finished"
        payloads = _token_payloads(game)
        for row in outbox():
            found = set(TOKEN.findall(row.text_body + (row.html_body or "")))
            for index, marks in payloads.items():
                if index != row.seat:
                    assert not found & marks, (
                        f"{row.kind} to seat {row.seat} holds seat {index}'s token")
        assert {r.kind for r in outbox()} >= {"invitation", "decision", "your_turn",
                                             "others_turn", "game_over"}


def test_the_rematch_link_opens_the_create_form_filled_in_for_the_host_only(
    app: Flask, make_app: MakeApp
) -> None:
    web = make_app(MAIL_BACKEND="dev", SERVER_NAME="localhost", WTF_CSRF_ENABLED=False)
    with web.app_context():
        game = new_game(THREE, options={"new_gaia_rescue": "low"}, time_per_move_hours=24)
        link = links.rematch_url(game)
        public_id = game.public_id
    path = link.removeprefix("http://localhost")
    page = web.test_client().get(path)
    assert page.status_code == 200
    body = page.get_data(as_text=True)
    for name, email in THREE:
        assert f'value="{name}"' in body and f'value="{email}"' in body
    assert "Friday Frontier (rematch)" in body and 'value="24"' in body
    refused = web.test_client().get(f"/games/new?rematch={public_id}")
    assert refused.status_code in (401, 403)
    assert "ana@example.org" not in refused.get_data(as_text=True)
