"""The context builders are pure: each mail kind's words come from a ``Given`` made by hand,
with no app, no database and no clock (pbem/mail/outbound/context.py)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from pbem import engine
from pbem.engine import bots
from pbem.mail.outbound import context
from pbem.mail.outbound.given import GameFacts, Given, SeatFacts
from pbem.mail.outbound.suggestions import rank

NOW = datetime(2025, 12, 1, 12, 0, tzinfo=UTC)


def _given(state: engine.GameState, seat: int) -> Given:
    seats = tuple(SeatFacts(i, name, "Europe/Lisbon", "every_turn", False, None, False, 0)
                  for i, name in enumerate(("Ana", "Ben", "Cy")[:state.players]))
    picture = engine.view(state, seat)
    legal = picture["legal"]
    return Given(GameFacts("Friday Frontier", {"factions": False}, 48, 0, seats), seats[seat],
                 picture, NOW, "https://pbem.test/games/g", "https://pbem.test/play/t",
                 "https://pbem.test/mail/unsubscribe/u",
                 previews=engine.menu_previews(state, legal, picture["picks"]),
                 ranked=rank(state, seat, legal), since=("Ben docked 4 at the Lunar Mine.",),
                 example=("dock 4 lunar_mine", "end"))


def test_every_game_mails_context_is_built_from_what_it_is_given_alone() -> None:
    state = engine.new_game(3, 5, {"factions": False})
    given = _given(state, 0)
    due = NOW + timedelta(hours=47)
    turn = context.your_turn(given, due)
    assert turn["deadline"] == "Wednesday 3 December, 11:00 WET, 47 hours from now"
    assert turn["preheader"] == "Your turn · round 1 · 47 h left"
    assert turn["since"] == ["Ben docked 4 at the Lunar Mine."]
    assert turn["example"] == ["dock 4 lunar_mine", "end"]
    assert turn["moves"] and all(m["url"].startswith("https://pbem.test/play/t?move=")
                                 for m in turn["moves"])
    assert turn["moves"][0]["notation"] == engine.format_action(
        engine.action_from_json(given.ranked[0]))
    assert context.reminder(given, due)["left"] == "47 hours"
    assert context.invitation(given)["invited"].startswith("you have set up Friday Frontier")
    assert context.others_turn(given, 1, [], None)["actor"] == "Ben"
    assert context.vacation(given, "Ben", due)["until"] == "Wednesday 3 December, 11:00 WET"
    assert context.resumed(given, 0, due)["yours"] is True
    assert context.deadline_extended(given, 1, 5, due)["whose"] == "Ben"
    assert context.digest(given, ["a", "b"])["happened"] == ["a", "b"]
    assert context.autopilot(given, [])["absent"] is False


def test_the_game_over_context_ranks_the_final_scores() -> None:
    final, _ = bots.play_game(3, 5, bots.greedy_bot, {"factions": False})
    values = context.game_over(_given(final, 1), "https://pbem.test/games/g/replay", None, None)
    totals = [row["total"] for row in values["ranking"]]
    assert totals == sorted(totals, reverse=True)
    assert [row["place"] for row in values["ranking"]][0] == 1
    assert values["winners"] and values["rematch_url"] is None and values["start_url"] is None
    assert values["season"] == []  # a season's table from its second game on
    assert "active_name" in values and values["active_name"] is None  # no "now it is X's"


def test_the_season_contexts_are_built_from_what_they_are_given_alone() -> None:
    state = engine.new_game(3, 5, {"factions": False})
    given = _given(state, 1)
    mine = context.resigned(given, 1, [])
    assert mine["yours"] and mine["preheader"].startswith("You resigned")
    news = context.resigned(_given(state, 2), 1, [])
    assert news["preheader"] == "Ben resigned · the computer plays the seat · Ana's turn now"
    assert news["level"] == "Greedy"
    assert context.cancelled(given)["when"] == "Monday 1 December, 12:00 WET"
    welcome = context.substitution(given, "Bartholomew")
    assert welcome["preheader"] == ("Invitation · you take over Bartholomew's seat · we mail "
                                    "you on your turn")
    assert context.handed_over(given, 1, "Bartholomew")["new_name"] == "Ben"
    asked = context.rematch_asked(given, 2, NOW, "https://pbem.test/host/h/rematch")
    assert asked["preheader"] == "Host · Cy asks for a rematch · start it in one tap"
    assert context.invitation(given, None, "Season Opener")["invited"].startswith(
        "Ana started a rematch of Season Opener")
