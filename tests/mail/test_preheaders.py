"""Issue 14, "Subjects": every mail of a game keeps the game's one subject (the thread) and
opens with a preheader saying what it is about — the text part's first line and hidden
preview text at the top of the HTML part (docs/mail.md, "Subject and preheader")."""

from __future__ import annotations

import html
import re
from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa
from flask import Flask

from pbem.extensions import db
from pbem.mail.outbound import compose
from pbem.models.outbox import Outbox
from tests.conftest import MakeApp
from tests.mail.conftest import PLAYERS, new_game
from tests.mail.test_factions_mail import Clock, mail_app
from tests.mail.test_game_mail import play_to_the_end

pytestmark = pytest.mark.quiet_hours  # .ci/run runs it again at five hours of the day

SUBJECT = "Alien Frontiers: Friday Frontier"
T0 = datetime(2026, 12, 1, 9, 0, tzinfo=UTC)
# each kind's preheader, as the inbox shows it
PREHEADERS = {
    "invitation": r"Invitation · (Ana invited you|a new game of Alien Frontiers) · keep this "
                  r"mail: its link is your seat",
    "your_turn": r"Your turn · round \d+ · (\d+ h left|\d+ min left|no deadline)",
    "others_turn": r"(Ana|Ben|Cy) moved · round \d+( · (your turn now|(Ana|Ben|Cy)'s turn now))?",
    "game_over": r"Game over · (Ana|Ben|Cy)( and (Ana|Ben|Cy))* (won|share the win) with \d+ VP",
    "hosting": r"Host · your game is ready · your host page",  # the host does not play
}


def preheader_of(row: Outbox) -> str:
    return row.text_body.split("\n\n", 1)[0]


def test_every_mail_of_a_game_keeps_the_subject_and_says_its_kind_first(
    app: Flask, make_app: MakeApp
) -> None:
    with mail_app(make_app).app_context():
        game = new_game(PLAYERS, seed=11)
        play_to_the_end(game)
        rows = db.session.scalars(sa.select(Outbox).order_by(Outbox.id)).all()
        assert {r.kind for r in rows} >= set(PREHEADERS)
        for row in rows:
            assert row.subject == SUBJECT  # one thread per game (Gmail needs the same subject)
            first = preheader_of(row)
            assert re.fullmatch(PREHEADERS[row.kind], first), (row.kind, first)
            hidden = re.search(r'<div class="preheader" style="display:none[^>]*>([^<]*)',
                               row.html_body or "")
            assert hidden is not None, row.kind
            # the preview text, before the invisible padding that keeps the body out of it
            assert html.unescape(hidden.group(1)).split("\u034f")[0] == first, row.kind
        turns = [r for r in rows if r.kind == "your_turn"]
        others = [r for r in rows if r.kind == "others_turn"]
        # the two are told apart in the inbox list, not only once opened
        assert {preheader_of(r).split(" · ")[0] for r in turns} == {"Your turn"}
        assert all(" moved · " in preheader_of(r) for r in others)


def test_the_turn_mail_and_the_reminder_say_the_time_left(app: Flask, make_app: MakeApp) -> None:
    with mail_app(make_app, Clock(T0)).app_context():
        game = new_game(PLAYERS)
        ana = game.seat(0)
        turn = compose.your_turn(game, ana, T0 + timedelta(hours=47))
        assert turn.subject == SUBJECT
        assert turn.preheader == "Your turn · round 1 · 47 h left"
        assert turn.text.startswith("Your turn · round 1 · 47 h left\n\nHi Ana, it's your turn")
        paused = compose.your_turn(game, ana, None)
        assert paused.preheader == "Your turn · round 1 · no deadline"
        soon = compose.reminder(game, ana, T0 + timedelta(minutes=40))
        assert soon.subject == SUBJECT
        assert soon.preheader == "Reminder · 40 min left · your turn in round 1"
        db.session.rollback()


def test_the_other_kinds_say_what_they_are(app: Flask, make_app: MakeApp) -> None:
    with mail_app(make_app, Clock(T0)).app_context():
        game = new_game(PLAYERS)
        ben = game.seat(1)
        away = compose.vacation(game, ben, "Cy", T0 + timedelta(days=3))
        assert away.subject == SUBJECT
        assert away.preheader.startswith("Cy is on vacation · their clock stops until Friday")
        late = compose.autopilot_played(game, ben, [])
        assert late.preheader == "Your time ran out · the autopilot played for you"
        failing = compose.email_failing(game, ben, "550 no such user")
        assert failing.subject == SUBJECT
        assert failing.preheader == "Host · mail to Ben is failing · please check the address"
        digest = compose.digest(game, ben, [])
        assert digest.preheader == "Daily digest · 0 things happened · Ana's turn now"
        link = compose.magic_link("https://pbem.test/me/x")
        assert link.text.startswith(link.preheader + "\n\n")
        assert link.preheader in (link.html or "")
        db.session.rollback()


def test_the_reminder_carries_the_roll_and_the_move_links_like_the_turn_mail(
    app: Flask, make_app: MakeApp
) -> None:
    with mail_app(make_app, Clock(T0)).app_context():
        game = new_game(PLAYERS)
        ana = game.seat(0)
        turn = compose.your_turn(game, ana, T0 + timedelta(hours=47))
        reminder = compose.reminder(game, ana, T0 + timedelta(hours=12))
        for mail in (turn, reminder):
            assert "Your roll     " in mail.text
            assert "Some moves you can make now" in mail.text
            assert "?move=" in mail.text and "?move=" in (mail.html or "")
        # each suggested move reads goal, then how, then its cost or gain
        line = re.search(r"\n  (\S.{23}) (dock [1-6 ]+ at the [^(\n]+)(?: \(([^)]*)\))?\n",
                         turn.text)
        assert line is not None, turn.text
        db.session.rollback()


def test_each_preheader_says_what_its_mail_says(app: Flask, make_app: MakeApp) -> None:
    """Issue 26: the invitation has no accept step (its link is the seat, and the game mails
    the turns), and the host's clock mails say what changed before they are opened."""
    with mail_app(make_app, Clock(T0)).app_context():
        game = new_game(PLAYERS)
        ana, ben = game.seat(0), game.seat(1)
        invited = compose.invitation(game, ben)
        assert "accept" not in invited.text.lower()
        assert invited.preheader.endswith(" · keep this mail: its link is your seat")
        assert "Keep this mail: the link is your seat in the game" in invited.text
        paused = compose.paused(game, ben, T0)
        assert paused.preheader == ("Paused by the host · no clock runs until the host "
                                    "resumes the game")
        assert "No clock runs" in paused.text and "until the host resumes the game" in paused.text
        resumed = compose.resumed(game, ben, 0, T0 + timedelta(hours=5))
        assert resumed.preheader == "The game goes on · the clock runs again · Ana's turn"
        assert "the clock runs again" in resumed.text
        mine = compose.resumed(game, ana, 0, T0 + timedelta(hours=5))
        assert mine.preheader.endswith(" · your turn") and "It is your turn" in mine.text
        later = compose.deadline_extended(game, ben, 0, 5, T0 + timedelta(hours=9))
        assert later.preheader == "A deadline moved · 5 more hours for Ana · 9 h left"
        assert "The host gave Ana 5 more hours" in later.text
        one = compose.deadline_extended(game, ana, 0, 1, T0 + timedelta(hours=2))
        assert one.preheader == "A deadline moved · 1 more hour for you · 2 h left"
        for mail in (invited, paused, resumed, later):
            assert mail.text.startswith(mail.preheader + "\n\n")
        db.session.rollback()
