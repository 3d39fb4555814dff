"""Pages about a whole game: create (``/games/new``), watch (``/games/<public_id>``), replay
(``/games/<public_id>/replay?step=N``) and the host page (``/host/<token>``).

Nothing here shows a secret: spectators get ``engine.view(state, None)``, and seats are
listed by name only (never an email address).
"""

from __future__ import annotations

from typing import Any

from flask import (
    Blueprint,
    Response,
    abort,
    make_response,
    redirect,
    render_template,
    request,
    url_for,
)
from marshmallow import ValidationError
from werkzeug.datastructures import MultiDict

from pbem import engine, tokens
from pbem.engine import GameState
from pbem.models import ActionLog, Game
from pbem.schemas.forms import NewGameForm, first_errors, new_game_input
from pbem.services import games
from pbem.services.errors import BadInput
from pbem.services.validation import clean_email
from pbem.web.board_svg import board_svg
from pbem.web.reads import game_by_public_id, log_rows, time_left
from pbem.web.turn_factions import public_seats
from pbem.words.describe import describe
from pbem.words.glossary import options_words
from pbem.words.result import result_words, standings, tiebreak_words

bp = Blueprint("games", __name__)


@bp.get("/games/new")
def new_game() -> Response:
    """The empty create form, or the host's rematch form (which shows the players' addresses:
    never cached). GET and HEAD only show: creating is ``create``'s, POST only."""
    form = new_game_input(MultiDict(), blank=True)
    if request.args.get("rematch"):  # the host's "rematch" link in the game-over mail
        form = _rematch_form(request.args["rematch"], form)
    response = make_response(render_template("games/new.html", form=form, errors={}))
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/games/new")
def create() -> Response:
    raw = new_game_input(request.form)
    try:
        data = NewGameForm().load(raw)
    except ValidationError as exc:
        page = render_template("games/new.html", form=raw,
                               errors=first_errors(exc.messages_dict))
        return make_response(page, 400)
    if address_errors := _address_errors(data):
        page = render_template("games/new.html", form=raw, errors=address_errors)
        return make_response(page, 400)
    try:
        game = games.create_game(
            name=data["name"], host_email=data["host_email"], seats=data["specs"],
            options=data["options"], time_per_move_hours=data["hours"],
        )
    except BadInput as exc:  # e.g. the engine's "The base game takes 2 to 4 players."
        page = render_template("games/new.html", form=raw, errors={"options": exc.message})
        return make_response(page, 400)
    host_url = url_for("games.host", token=tokens.make_host_token(game.public_id),
                       _external=True)
    page = render_template("games/created.html", game=game, host_url=host_url,
                           watch_url=url_for("games.spectate", public_id=game.public_id,
                                             _external=True))
    response = make_response(page, 201)
    response.headers["Cache-Control"] = "no-store"
    return response


def _address_errors(data: dict[str, Any]) -> dict[str, str]:
    """Each address the service would refuse, by the form field it belongs beside (the
    service checks them again, with the same rule)."""
    errors: dict[str, str] = {}
    try:
        clean_email(data["host_email"], what="Your email address")
    except BadInput as exc:
        errors["host_email"] = exc.message
    for spec in data["specs"]:
        if spec.email is not None and "seats" not in errors:
            try:
                clean_email(spec.email, what=f"{spec.name}’s email address")
            except BadInput as exc:
                errors["seats"] = exc.message
    return errors


def _rematch_form(host_token: str, form: dict[str, Any]) -> dict[str, Any]:
    """The create form filled in from a game: same players (in seat order), options, hours.

    The link carries the host token, not the public id: the form shows the players'
    addresses, which only the host may see (a bad or revoked token is refused, 401/403)."""
    old = game_by_public_id(tokens.read_host_token(host_token))
    if old is None:
        raise tokens.BadToken("revoked")
    seats = [{"name": s.name, "email": s.email or "", "computer": s.is_bot}
             for s in sorted(old.seats, key=lambda s: s.index)]
    form["seats"] = (seats + form["seats"][len(seats):])[:len(form["seats"])]
    options = dict(old.options or {})
    form.update(name=f"{old.name} (rematch)"[:80], host_email=old.host_email,
                hours=old.time_per_move_hours, factions=bool(options.get("factions")),
                new_gaia_rescue=options.get("new_gaia_rescue", "high"))
    return form


def _game_or_404(public_id: str) -> Game:
    game = game_by_public_id(public_id)
    if game is None:
        abort(404)
    return game


def _names(game: Game) -> list[str]:
    return [s.name for s in game.seats]


@bp.get("/games/<public_id>")
def spectate(public_id: str) -> str:
    game = _game_or_404(public_id)
    view = engine.view(GameState.from_json(game.state), None)
    names = _names(game)
    rows = log_rows(game)
    entries = [{"seq": r.seq, "round": r.round, "who": names[r.seat] if r.seat < len(names)
                else "?", "notation": r.notation, "words": describe(r.events or [], names)}
               for r in rows]
    return render_template("games/spectate.html", game=game, view=view, names=names,
                           board=board_svg(view, names), entries=entries,
                           time_left=time_left(game, view["awaiting"]),
                           result_words=result_words(view, names),
                           standings=standings(view, names),
                           tiebreak=tiebreak_words(view, names),
                           options=options_words(game.options or {}, game.time_per_move_hours),
                           public_seats=public_seats(view, names))


@bp.get("/games/<public_id>/replay")
def replay(public_id: str) -> str:
    game = _game_or_404(public_id)
    steps = [r for r in log_rows(game) if r.action.get("kind") in engine.ACTION_TYPES]
    step = request.args.get("step", type=int)
    step = len(steps) if step is None else max(0, min(step, len(steps)))
    state = _replayed(game, steps[:step])
    view = engine.view(state, None)
    names = _names(game)
    here = steps[step - 1] if step else None
    return render_template(
        "games/replay.html", game=game, view=view, names=names, step=step, total=len(steps),
        board=board_svg(view, names), here=here,
        words=describe(here.events or [], names) if here else [],
        who=names[here.seat] if here and here.seat < len(names) else "",
    )


def _replayed(game: Game, rows: list[ActionLog]) -> GameState:
    actions = [engine.action_from_json(r.action) for r in rows]
    return engine.replay(game.players, game.seed, dict(game.options or {}), actions)


@bp.get("/host/<token>")
def host(token: str) -> Response:
    game = _host_game(token)
    view = engine.view(GameState.from_json(game.state), None)
    page = render_template("games/host.html", game=game, view=view, token=token,
                           rematch_url=url_for("games.new_game", rematch=token)
                           if view.get("result") else None,
                           names=_names(game), time_left=time_left(game, view["awaiting"]),
                           options=options_words(game.options or {}, game.time_per_move_hours),
                           public_seats=public_seats(view, _names(game)))
    response = make_response(page)
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/host/<token>/cancel")
def cancel(token: str) -> Any:
    game = _host_game(token)
    games.cancel_game(game.id)
    return redirect(url_for("games.host", token=token), 303)


def _host_game(token: str) -> Game:
    public_id = tokens.read_host_token(token)
    game = game_by_public_id(public_id)
    if game is None:
        raise tokens.BadToken("revoked")
    return game
