"""Every example works (issue 24): the reply example a turn or decision mail shows, sent back
as written through the real reply service, is applied as a whole, in random positions of 2-5
seats with Factions on and off, reached by random and easy bots playing a random number of
steps. 60 positions in the quick run, 500 under ``slow``."""

from __future__ import annotations

import random
from collections.abc import Iterator
from email.message import EmailMessage

import pytest
from flask import Flask

from pbem import engine
from pbem.engine import GameState, bots
from pbem.engine.bots.easy import easy_bot
from pbem.extensions import db
from pbem.models import Game, Outbox
from pbem.services import games, turns
from pbem.services.games import SeatSpec
from tests.conftest import ON_SQLITE_ONLY

from .conftest import deliver, turn_mail

NAMES = ("Ana", "Ben", "Cy", "Di", "Ed")
INTRO = ("Or play by replying to this mail", "Or answer by replying to this mail")


PER_GAME = 5  # positions taken from one game at most, so that many games are played


def positions(count: int, seed: int) -> Iterator[tuple[int, bool, GameState]]:
    """``count`` positions of games of 2-5 seats (Factions on for five), each reached from
    the one before by a random number of random or easy moves."""
    rng = random.Random(seed)
    made = 0
    while made < count:
        players = rng.choice((2, 3, 4, 5))
        factions = players == 5 or rng.random() < 0.5
        state = engine.new_game(players, rng.randrange(2**31), {"factions": factions})
        bot_rng = [rng.randrange(2**31), 0]
        yielded = False  # a position of this game: the next must differ from it
        for _ in range(PER_GAME):
            if made == count:
                break
            moves = rng.randrange(0, 80)
            for _ in range(moves):
                if state.phase == "over":
                    break
                seat = engine.awaited(state)
                assert seat is not None
                bot = bots.random_bot if rng.random() < 0.6 else easy_bot
                engine.apply_in_place(state, bot(bots.redacted(state, seat), seat, bot_rng))
            if state.phase == "over":
                break
            if moves == 0 and yielded:  # the position just played (a reply to it was applied)
                continue
            yielded = True
            made += 1
            yield players, factions, state.clone()


class Tables:
    """One game per seat count and option, every seat a person (``my_turn`` mail only),
    whose position each case replaces."""

    def __init__(self) -> None:
        self.ids: dict[tuple[int, bool], int] = {}

    def game(self, players: int, factions: bool) -> Game:
        key = (players, factions)
        if key not in self.ids:
            game = games.create_game(
                name=f"examples {players} {factions}", host_email="ana@example.org",
                seats=[SeatSpec(NAMES[i], f"{NAMES[i].lower()}@example.org")
                       for i in range(players)],
                options={"factions": factions}, seed=1, fixed_order=True)
            for seat in game.seats:
                seat.notify = "my_turn"
            db.session.commit()
            self.ids[key] = game.id
        return db.session.get_one(Game, self.ids[key], populate_existing=True)


def example_of(mail: Outbox) -> list[str]:
    """The lines of the mail's reply block, as a player copies them."""
    text = mail.text_body
    start = next((text.index(intro) for intro in INTRO if intro in text), None)
    assert start is not None, f"the {mail.kind} mail has no reply block:\n{text}"
    block = text[start:].split("\n")[1:]
    return [line.strip() for line in block[:block.index(next(
        line for line in block if line.startswith("Also:")))]]


def reply(mail: Outbox, game: Game, seat: int, lines: list[str], number: int) -> EmailMessage:
    msg = EmailMessage()
    msg["From"] = game.seat(seat).email
    msg["To"] = mail.headers["Reply-To"]
    msg["Subject"] = "Re: " + mail.subject
    msg["Message-ID"] = f"<example-{number}@client.test>"
    msg["In-Reply-To"] = mail.headers["Message-ID"]
    msg["References"] = mail.headers["Message-ID"]
    msg.set_content("\n".join(lines) + "\n\nOn Monday, pbem wrote:\n> quoted\n")
    return msg


def applied_lines(answer: str) -> list[str]:
    block = answer.split("Applied from your reply\n", 1)[1]
    return [line.strip() for line in block.split("\n\n", 1)[0].splitlines()
            if not line.startswith("    ")]  # what a line did: the sentences under it


def play_examples(app: Flask, count: int, seed: int) -> None:
    app.config["REPLY_ANSWERS_PER_HOUR"] = count + 1  # one table answers many replies an hour
    tables = Tables()
    kinds: set[str] = set()
    for number, (players, factions, state) in enumerate(positions(count, seed)):
        game = tables.game(players, factions)
        game.state = game.turn_start_state = state.to_json()
        game.turn_steps = []
        game.status = "active"
        game.version += 1
        seat = engine.awaited(state)
        assert seat is not None
        turns.announce(game, state, None)
        db.session.commit()
        mail = turn_mail(game.id, seat)
        assert mail.kind in ("your_turn", "decision")
        kinds.add(mail.kind)
        lines = example_of(mail)
        assert lines, mail.text_body
        game = db.session.get_one(Game, game.id)
        assert deliver(reply(mail, game, seat, lines, number)) == "applied", \
            (lines, turn_mail(game.id, seat).text_body)
        answer = turn_mail(game.id, seat)
        assert answer.kind == "reply_answer"
        assert "your reply was applied." in answer.text_body, answer.text_body
        assert "Not applied yet" not in answer.text_body
        assert applied_lines(answer.text_body) == lines
    assert kinds == {"your_turn", "decision"}
    assert set(tables.ids) == {(players, factions) for players in (2, 3, 4, 5)
                               for factions in (True, False) if players < 5 or factions}


def test_the_reply_example_of_sixty_random_positions_applies_as_a_whole(server: Flask) -> None:
    play_examples(server, 60, seed=24)


@pytest.mark.slow
@ON_SQLITE_ONLY  # the 60 positions above run on both databases
def test_the_reply_example_of_five_hundred_random_positions_applies_as_a_whole(
        server: Flask) -> None:
    play_examples(server, 500, seed=2024)
