"""Export, import and replay checks: a game is its creation record plus its log.

The export holds what the host already knows (names, addresses, the moves) plus the seed,
without which nothing replays; it holds no link tokens or counters. Because the seed lets a
reader foresee every later roll, exporting an *active* game is an operator's tool (the CLI),
not something to offer players. Import replays every step through the engine and refuses a
file whose moves, events or final state do not match.
"""

from __future__ import annotations

import hashlib
import json
from datetime import datetime
from typing import Any

from pbem import engine
from pbem.engine import GameState
from pbem.engine.bots.levels import BUDGET_ERROR, DEFAULT_LEVEL, LEVELS, is_budget
from pbem.extensions import db
from pbem.models import ActionLog, Game, Seat, history
from pbem.models.game import GAME_STATUSES, new_public_id
from pbem.services import deadlines, table_talk, turns
from pbem.services.errors import BadInput
from pbem.services.turns import GameRef, Step

FORMAT = "pbem-game/1"
SERVER_KINDS = frozenset({"resign", "substitute"})  # log rows the server writes, not moves
SEAT_FIELDS = ("index", "name", "email", "is_bot", "colour", "faction", "timezone", "notify",
               "resigned")
LOG_FIELDS = ("seq", "seat", "action", "notation", "events", "by", "round")


def state_digest(state: dict[str, Any]) -> str:
    """A stable fingerprint of a state, to check a replay without shipping the state."""
    canonical = json.dumps(state, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canonical.encode()).hexdigest()


def _iso(moment: datetime | None) -> str | None:
    return moment.isoformat() if moment else None


def export_game(game_id: GameRef) -> dict[str, Any]:
    """The game as JSON-ready data: creation record, seats, log and the turn in progress."""
    game = turns.find_game(game_id)
    return {
        "format": FORMAT,
        "public_id": game.public_id,
        "name": game.name,
        "status": game.status,
        "players": game.players,
        "options": game.options,
        "seed": game.seed,
        "host_email": game.host_email,
        "host_seat": game.host_seat,
        "time_per_move_hours": game.time_per_move_hours,
        "timeout_policy": game.timeout_policy,
        "autopilot_level": game.autopilot_level,
        # the strong computer players' rollouts per decision (null: the default); older
        # exports lack it and import as the default
        "bot_budget": game.bot_budget,
        "created_at": _iso(game.created_at),
        "finished_at": _iso(game.finished_at),
        "seats": [{**{name: getattr(seat, name) for name in SEAT_FIELDS},
                   "bot_level": seat.bot_level, "bank_seconds": seat.bank_seconds}
                  for seat in game.seats],
        "log": [{name: getattr(row, name) for name in LOG_FIELDS}
                for row in history.all_steps(game.id)],
        "turn_steps": list(game.turn_steps),
        "state_sha256": state_digest(game.state),
        # table talk (issue 27): not a move, so no replay reads it; older exports lack it
        "messages": table_talk.export_messages(game.id),
    }


def replay_steps(state: GameState, steps: list[dict[str, Any]], where: str) -> list[str]:
    """Re-apply logged steps to ``state`` in place; describe every mismatch found."""
    problems: list[str] = []
    for n, step in enumerate(steps, start=1):
        action_json = step.get("action") or {}
        if action_json.get("kind") in SERVER_KINDS:
            continue
        try:
            action = engine.action_from_json(action_json)
            events = engine.apply_in_place(state, action)
        except (engine.RulesError, KeyError, TypeError) as exc:
            problems.append(f"{where} step {n} ({step.get('notation')}): refused on replay: "
                            f"{getattr(exc, 'message', exc)}")
            break  # later steps would only repeat the same divergence
        if engine.format_action(action) != step.get("notation"):
            problems.append(f"{where} step {n}: notation {step.get('notation')!r} does not "
                            f"match its action ({engine.format_action(action)!r})")
        if "events" in step and events != step["events"]:
            problems.append(f"{where} step {n} ({step.get('notation')}): events differ on replay")
    return problems


def _check(players: int, seed: int, options: dict[str, Any], log: list[dict[str, Any]],
           turn_steps: list[Step]) -> tuple[GameState, GameState, list[str]]:
    """Replay the log (→ the turn's start) and then the turn in progress (→ the state)."""
    seqs = [row.get("seq") for row in log]
    problems = [] if seqs == list(range(1, len(seqs) + 1)) else ["log sequence has gaps"]
    state = engine.new_game(players, seed, options)
    problems += replay_steps(state, log, "log")
    turn_start = state.clone()
    problems += replay_steps(state, turn_steps, "turn in progress")
    return turn_start, state, problems


def verify_replay(game_id: GameRef) -> list[str]:
    """Problems found replaying the game from its creation record; [] means it is exact."""
    game = turns.find_game(game_id)
    log = [{name: getattr(row, name) for name in LOG_FIELDS} for row in history.all_steps(game.id)]
    turn_start, state, problems = _check(
        game.players, game.seed, game.options, log, list(game.turn_steps)
    )
    if turn_start.to_json() != game.turn_start_state:
        problems.append("the stored start of the current turn differs from the replayed one")
    if state.to_json() != game.state:
        problems.append("the stored state differs from the replayed one")
    if (state.phase == "over") != (game.status == "finished") and game.status != "cancelled":
        problems.append(f"the game is {game.status} but the replay is in phase {state.phase}")
    return problems


def _need(data: dict[str, Any], key: str, kind: type | tuple[type, ...]) -> Any:
    value = data.get(key)
    if not isinstance(value, kind):
        raise BadInput(f"The export has no valid '{key}'.")
    return value


def import_game(data: dict[str, Any]) -> Game:
    """Rebuild a game from ``export_game`` data under a new public id, after a full replay."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BadInput(f"This is not a pbem game export (expected format {FORMAT}).")
    players, seed = _need(data, "players", int), _need(data, "seed", int)
    options, log = _need(data, "options", dict), _need(data, "log", list)
    turn_steps, seats = _need(data, "turn_steps", list), _need(data, "seats", list)
    status = data.get("status")
    if status not in GAME_STATUSES or len(seats) != players:
        raise BadInput("The export's status or seats do not make sense.")
    try:
        turn_start, state, problems = _check(players, seed, options, log, turn_steps)
    except (engine.RulesError, AttributeError, TypeError) as exc:
        raise BadInput(f"The export does not replay: {getattr(exc, 'message', exc)}") from None
    if state_digest(state.to_json()) != data.get("state_sha256"):
        problems.append("the replayed final state differs from the exported one")
    if problems:
        raise BadInput("The export does not replay: " + "; ".join(problems))
    try:
        game = _new_game_row(data, turn_start, state)
        rows = [ActionLog(**{k: row[k] for k in LOG_FIELDS}) for row in log]
    except (KeyError, TypeError, ValueError) as exc:
        raise BadInput(f"The export is incomplete: {exc!r}") from None
    talk = table_talk.imported_messages(data.get("messages"), players, len(log))
    try:
        db.session.add(game)
        db.session.flush()
        for row in rows:
            row.game_id = game.id
            db.session.add(row)
        for message in talk:
            message.game_id = game.id
            db.session.add(message)
        deadlines.schedule_for(game)  # an imported active game's clock starts now
        db.session.commit()
    except BaseException:
        db.session.rollback()
        raise
    return game


def _new_game_row(data: dict[str, Any], turn_start: GameState, state: GameState) -> Game:
    finished = data.get("finished_at")
    game = Game(
        public_id=new_public_id(), name=str(data.get("name") or "Imported game"),
        status=data["status"], players=data["players"], options=data["options"],
        seed=data["seed"], state=state.to_json(), version=1,
        turn_start_state=turn_start.to_json(), turn_steps=data["turn_steps"],
        host_email=str(data["host_email"]), host_seat=data.get("host_seat"),
        time_per_move_hours=int(data.get("time_per_move_hours") or 48),
        timeout_policy=data.get("timeout_policy"),
        finished_at=datetime.fromisoformat(finished) if finished else None,
        autopilot_level=_level(data.get("autopilot_level")) or DEFAULT_LEVEL,
        bot_budget=_budget(data.get("bot_budget")),
    )
    game.seats = [Seat(**{name: seat[name] for name in SEAT_FIELDS},
                       bot_level=_level(seat.get("bot_level")) if seat["is_bot"] else None,
                       bank_seconds=_bank_seconds(seat.get("bank_seconds")))
                  for seat in data["seats"]]
    return game


def _bank_seconds(value: Any) -> int | None:
    """A seat's time bank from an export (None: the game's whole bank, or no bank; exports
    made before time banks carry none)."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise BadInput(f"The export gives a seat a time bank of {value!r} seconds.")
    return value


def _budget(value: Any) -> int | None:
    """The strong computer players' budget from an export (None: the default; exports made
    before the budget carry none)."""
    if value is None:
        return None
    if not is_budget(value):
        raise BadInput(f"The export gives the strong computer players a budget of {value!r} "
                       f"rollouts: {BUDGET_ERROR}")
    return value


def _level(value: Any) -> str | None:
    """A bot level from an export; exports made before levels carry none (None)."""
    if value is None:
        return None
    if value not in LEVELS:
        raise BadInput(f"The export names an unknown bot level {value!r}: one of "
                       + ", ".join(LEVELS) + ".")
    return str(value)
