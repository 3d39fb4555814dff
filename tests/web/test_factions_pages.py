"""The pages of a Factions game: the draft through the turn links (last seat first), a
decision awaited from a seat that is not the active one (ruling C5), the Factions actions
on the page, and the secrets (face-down Agendas, the boards offered in the draft) that no
other seat's page shows."""

from __future__ import annotations

import random
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from pbem import engine, tokens
from pbem.engine import GameState, bots
from pbem.engine.ids import FACTION_NAMES
from pbem.engine.scenarios import build_state, load
from pbem.extensions import db
from pbem.models import Game
from pbem.services import games
from pbem.services.games import SeatSpec
from pbem.words.glossary import AGENDAS, FACTIONS, TIEBREAK_WORDS
from tests.web.conftest import Table, choices, fresh, magic_key, post_move, snapshot

SCENARIOS = Path(__file__).resolve().parents[1] / "scenarios"
NAMES = ("Ana", "Ben", "Cy", "Dan", "Eve")


def factions_game(players: int = 3, seed: int = 20240601) -> Table:
    game = games.create_game(
        name="Faction Friday", host_email="host@example.org",
        seats=[SeatSpec(n, f"{n.lower()}@example.org") for n in NAMES[:players]],
        options={}, seed=seed, fixed_order=True,
    )
    return Table(game.id, game.public_id, [tokens.make_seat_link(game, s) for s in game.seats])


@pytest.fixture
def draft(ctx: Flask) -> Table:
    return factions_game()


def page_of(client: FlaskClient, link: str) -> str:
    return client.get(f"/play/{link}").get_data(as_text=True)


def put_state(table: Table, state: GameState) -> None:
    """Store `state` as the game's position (a turn just begun) for the page to show."""
    game = fresh(table.id)
    game.state = state.to_json()
    game.turn_start_state = state.to_json()
    game.turn_steps = []
    game.version += 1
    db.session.commit()


def test_the_last_seat_chooses_first_and_sees_each_board_in_words(
        client: FlaskClient, draft: Table) -> None:
    state = GameState.from_json(fresh(draft.id).state)
    assert state.phase == "draft" and engine.awaited(state) == 2
    page = page_of(client, draft.links[2])
    assert "your decision" in page and "Choose your faction" in page
    assert "Ana and Ben are waiting on you." in page
    offered = list(state.draft)
    for fid in offered:
        assert FACTIONS[fid].name.replace("'", "&#39;") in page
        assert FACTIONS[fid].facility.replace("'", "&#39;") in page
        assert FACTIONS[fid].owner.replace("'", "&#39;") in page
    assert sorted(choices(page)) == sorted(f"choose {fid}" for fid in offered)


def test_seats_not_awaited_wait_and_never_see_the_offered_boards(
        client: FlaskClient, draft: Table) -> None:
    state = GameState.from_json(fresh(draft.id).state)
    for seat in (0, 1):
        view = engine.view(state, seat)
        assert "draft" not in view["you"]  # the engine hides them...
        page = page_of(client, draft.links[seat])
        assert "Waiting for Cy to choose a faction." in page
        assert choices(page) == []
        for fid in state.draft:  # ...and so does the page
            assert fid not in page and FACTION_NAMES[fid].replace("'", "&#39;") not in page


def test_the_draft_is_played_through_the_turn_links(client: FlaskClient, draft: Table) -> None:
    for seat in (2, 1, 0):
        before = snapshot(draft.id)
        page = page_of(client, draft.links[seat])
        move = choices(page)[0]
        assert move.startswith("choose ")
        assert post_move(client, draft.links[seat], move, page).status_code == 303
        assert snapshot(draft.id)["version"] > before["version"]
        chosen = GameState.from_json(fresh(draft.id).state).seats[seat].faction
        assert chosen == move.split()[1]
    state = GameState.from_json(fresh(draft.id).state)
    assert state.phase == "play" and engine.awaited(state) == 0
    ana = page_of(client, draft.links[0])
    assert "your turn" in ana and "Your moves" in ana
    assert f"Your faction: {FACTIONS[state.seats[0].faction].name}".replace("'", "&#39;") in ana
    cy = page_of(client, draft.links[2])
    assert "Waiting for Ana" in cy


def test_a_decision_of_a_seat_that_is_not_the_active_one(client: FlaskClient,
                                                         ctx: Flask) -> None:
    """Ruling C5: Cy steals Ana's Multiverse Window; Ana must discard, Cy waits on her."""
    table = factions_game()
    data = load(SCENARIOS / "t6_multiverse_window_2.toml")
    state = build_state(data)
    for text in data["steps"][0]["do"]:
        state, _ = engine.apply(state, engine.parse_action(text, 2, 3))
    put_state(table, state)
    assert engine.awaited(state) == 0 and state.turn.seat == 2
    ana = page_of(client, table.links[0])
    assert "your decision" in ana and "Discard Agendas" in ana
    assert "Cy is waiting on you." in ana
    assert "discard agenda 1" in choices(ana)
    for seat in (1, 2):
        other = page_of(client, table.links[seat])
        assert "Waiting for Ana to decide." in other and choices(other) == []
    assert post_move(client, table.links[0], "discard agenda 1", ana).status_code == 303
    after = GameState.from_json(fresh(table.id).state)
    assert engine.awaited(after) == 2 and len(after.seats[0].agendas) == 1
    assert "Your moves" in page_of(client, table.links[2])


def _random_positions(players: int, seed: int, count: int) -> list[GameState]:
    state = engine.new_game(players, seed, {})
    rng = random.Random(seed)
    out = []
    for step in range(2000):
        seat = engine.awaited(state)
        if seat is None:
            break
        legal = engine.legal_actions(state, seat)
        if step % 37 == 0 or state.turn.pending is not None and rng.random() < 0.3:
            out.append(state)
        action = rng.choice(legal) if rng.random() < 0.3 else bots.greedy_bot(state, seat,
                                                                               [seed, step])
        state, _ = engine.apply(state, action)
        if len(out) >= count:
            break
    return out


@pytest.mark.parametrize("players,seed", [(3, 11), (4, 12), (5, 13)])
def test_every_legal_action_of_random_factions_positions_is_on_the_page(
        client: FlaskClient, ctx: Flask, players: int, seed: int) -> None:
    table = factions_game(players, seed)
    kinds: set[str] = set()
    for state in _random_positions(players, seed, 12):
        put_state(table, state)
        seat = engine.awaited(state)
        assert seat is not None
        page = page_of(client, table.links[seat])
        legal = sorted(engine.format_action(a) for a in engine.legal_actions(state, seat))
        kinds.update(a.kind for a in engine.legal_actions(state, seat))
        assert sorted(choices(page)) == legal, (state.phase, state.turn.pending)
    assert "choose_faction" in kinds and "dock" in kinds


def every_page(client: FlaskClient, table: Table) -> dict[str, str]:
    pages = {f"seat {i}": f"/play/{link}" for i, link in enumerate(table.links)}
    pages.update({
        "spectator": f"/games/{table.public_id}",
        "replay": f"/games/{table.public_id}/replay",
        "host": f"/host/{tokens.make_host_token(table.public_id)}",
        "dashboard": f"/me/{magic_key(client.application, 'ben@example.org')}",
    })
    return {name: client.get(url).get_data(as_text=True) for name, url in pages.items()}


def _secrets_absent(pages: dict[str, str], state: GameState) -> None:
    for owner, seat in enumerate(state.seats):
        secrets = [(a, AGENDAS[a].name) for a in seat.agendas]
        if state.turn.pending and state.turn.pending.get("seat") == owner \
                and state.turn.pending["kind"] == "draft":
            secrets += [(f, FACTION_NAMES[f].replace("'", "&#39;")) for f in state.draft]
        for name, page in pages.items():
            if name == f"seat {owner}":
                continue
            for sid, words in secrets:
                assert sid not in page and words not in page, (name, owner, sid)


def test_agendas_and_offered_boards_stay_private_on_every_page(client: FlaskClient,
                                                                draft: Table) -> None:
    state = GameState.from_json(fresh(draft.id).state)
    _secrets_absent(every_page(client, draft), state)
    for seat in (2, 1, 0):
        post_move(client, draft.links[seat], choices(page_of(client, draft.links[seat]))[0])
        state = GameState.from_json(fresh(draft.id).state)
        _secrets_absent(every_page(client, draft), state)
    ana = page_of(client, draft.links[0])
    for aid in state.seats[0].agendas:  # the owner sees hers, with both halves
        assert AGENDAS[aid].name in ana
        assert AGENDAS[aid].end_game.replace("'", "&#39;") in ana


def _finished_five_seat_game_with_a_tie() -> Game:
    """Five computer seats play a whole game inside create_game; seeds whose game ended in
    a tie (found by playing them; any of them will do)."""
    for seed in (9, 12, 16, 18, 20, 21):
        game = games.create_game(
            name="Five bots", host_email="host@example.org",
            seats=[SeatSpec(n, None, is_bot=True) for n in NAMES], options={}, seed=seed,
            fixed_order=True)
        if (game.state.get("result") or {}).get("tiebreak"):
            return game
    raise AssertionError("no sample seed ended in a tie any more: pick new seeds")


def test_a_finished_five_seat_game_shows_factions_agendas_and_the_tie_break(
        client: FlaskClient, ctx: Flask) -> None:
    game = _finished_five_seat_game_with_a_tie()
    state = GameState.from_json(game.state)
    assert game.status == "finished" and state.result is not None
    page = client.get(f"/games/{game.public_id}").get_data(as_text=True)
    assert "game over" in page and "Factions on" in page
    assert "purple" in page and "Eve" in page
    for seat in state.seats:
        assert FACTION_NAMES[seat.faction].replace("'", "&#39;") in page
        for aid in seat.revealed:
            assert f"Revealed: {AGENDAS[aid].name}" in page
    assert any(seat.revealed for seat in state.seats)
    words = TIEBREAK_WORDS[state.result["tiebreak"]]
    assert f"Tie broken by {words}." in page


def test_each_chooser_in_turn_is_sent_the_decision_mail(client: FlaskClient,
                                                        draft: Table) -> None:
    """create_game and every hand-over call the notify hook for the seat `awaited` names:
    the draft asks the last seat first, then each seat down to seat 0."""
    import sqlalchemy as sa

    from pbem.models import Outbox

    def decisions() -> list[str]:
        rows = db.session.execute(sa.select(Outbox.to_addr).where(Outbox.kind == "decision")
                                  .order_by(Outbox.id)).scalars().all()
        return [str(r) for r in rows]

    assert decisions() == ["cy@example.org"]
    post_move(client, draft.links[2], choices(page_of(client, draft.links[2]))[0])
    assert decisions()[-1] == "ben@example.org"
    post_move(client, draft.links[1], choices(page_of(client, draft.links[1]))[0])
    assert decisions()[-1] == "ana@example.org"
