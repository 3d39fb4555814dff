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

from pbem import engine
from pbem.engine import GameState
from pbem.engine.bots.levels import DEFAULT_LEVEL, LEVEL_NAMES, MAX_BUDGET, MIN_BUDGET
from pbem.engine.bots.strong import ROLLOUTS
from pbem.mail.outbound.links import host_token
from pbem.models import ActionLog, Game
from pbem.schemas.forms import (
    AutopilotLevelForm,
    BotBudgetForm,
    ConfirmForm,
    NewGameForm,
    bot_budget_input,
    first_errors,
    new_game_errors,
    new_game_input,
    seat_key,
)
from pbem.services import games, host_links
from pbem.services.errors import BadInput
from pbem.services.validation import clean_email, clean_timezone, shared_addresses
from pbem.web.presenters.board_svg import board_svg
from pbem.web.presenters.log import log_by_round
from pbem.web.presenters.notice_panel import table_line
from pbem.web.presenters.paused import paused_words
from pbem.web.presenters.reads import game_by_public_id, log_rows, time_left
from pbem.web.presenters.season import play_again
from pbem.web.presenters.seat_panel import COMMON_ZONES
from pbem.web.presenters.seat_status import cancelled_words
from pbem.web.presenters.table_talk import BOARD_LIMIT, table_board
from pbem.web.presenters.turn_factions import public_seats
from pbem.words.describe import describe
from pbem.words.glossary import options_words
from pbem.words.result import result_words, standings, tiebreak_words

bp = Blueprint("games", __name__)


@bp.context_processor
def _levels() -> dict[str, Any]:
    """The bot levels' names, for the level selects of the create form and the host page,
    the strong computer players' budget (its range and the default, read now), and the time
    zones the create form offers."""
    return {"levels": LEVEL_NAMES, "zones": COMMON_ZONES,
            "budget": {"min": MIN_BUDGET, "max": MAX_BUDGET, "default": ROLLOUTS}}


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
        data: dict[str, Any] | None = NewGameForm().load(raw)
        errors: dict[str, str] = {}
    except ValidationError as exc:
        data, errors = None, new_game_errors(exc.messages_dict)
    # Every problem at once: the addresses are checked even when another field is wrong.
    for key, message in _typed_errors(raw).items():
        errors.setdefault(key, message)
    if errors or data is None:
        page = render_template("games/new.html", form=raw, errors=errors)
        return make_response(page, 400)
    warnings = [] if data["same_address_ok"] else shared_addresses(
        [(s.name, s.email) for s in data["specs"] if not s.is_bot])
    if warnings:  # nothing is created until the host says the seats share it on purpose
        page = render_template("games/new.html", form=raw, errors={}, warnings=warnings)
        return make_response(page, 200)
    try:
        game = games.create_game(
            name=data["name"], host_email=data["host_email"], seats=data["specs"],
            options=data["options"], time_per_move_hours=data["hours"],
            autopilot_level=data["autopilot_level"], time_bank=data["time_bank"],
            bot_budget=data["bot_budget"],
        )
    except BadInput as exc:  # e.g. the engine's "The base game takes 2 to 4 players."
        page = render_template("games/new.html", form=raw, errors={"options": exc.message})
        return make_response(page, 400)
    # Post/redirect/get: the "game is ready" page is a GET of its own, so reloading it (or
    # going back to it) shows the same game instead of posting the form again.
    return redirect(url_for("games.created", token=host_token(game)),
                    303)  # type: ignore[return-value]


@bp.get("/host/<token>/ready")
def created(token: str) -> Response:
    """The page the create form leads to: the host link (the token is in this page's URL, as
    on the host page: never cached) and the spectator link."""
    game = _host_game(token)
    page = render_template("games/created.html", game=game,
                           host_url=url_for("games.host", token=token, _external=True),
                           watch_url=url_for("games.spectate", public_id=game.public_id,
                                             _external=True))
    response = make_response(page)
    response.headers["Cache-Control"] = "no-store"
    return response


def _typed_errors(raw: dict[str, Any]) -> dict[str, str]:
    """What is wrong with the time zone and each address typed in the form, by the key of the
    field it belongs beside, in the services' own words (the service checks them again, with
    the same rule). An empty address is the schema's to name."""
    errors: dict[str, str] = {}
    try:
        clean_timezone(str(raw.get("timezone") or ""))
    except BadInput as exc:
        errors["timezone"] = exc.message
    typed = str(raw.get("host_email") or "").strip()
    if typed:
        try:
            clean_email(typed, what="Your email address")
        except BadInput as exc:
            errors["host_email"] = exc.message
    for row, seat in enumerate(raw.get("seats") or []):
        email, name = str(seat.get("email") or "").strip(), str(seat.get("name") or "").strip()
        if email and not seat.get("computer"):
            try:
                clean_email(email, what=f"{name or f'Player {row + 1}'}’s email address")
            except BadInput as exc:
                errors[seat_key(row)] = exc.message
    return errors


def _rematch_form(host_token: str, form: dict[str, Any]) -> dict[str, Any]:
    """The create form filled in from a game: same players (in seat order), options, hours.

    The link carries the host token, not the public id: the form shows the players'
    addresses, which only the host may see (a bad or revoked token is refused, 401/403)."""
    old = host_links.resolve_host_link(host_token)
    seats = [{"name": s.name, "email": s.email or "", "computer": s.is_bot,
              "level": s.level or DEFAULT_LEVEL}
             for s in sorted(old.seats, key=lambda s: s.index)]
    form["seats"] = (seats + form["seats"][len(seats):])[:len(form["seats"])]
    options = dict(old.options or {})
    form.update(name=f"{old.name} (rematch)"[:80], host_email=old.host_email,
                hours=old.time_per_move_hours, factions=bool(options.get("factions")),
                new_gaia_rescue=options.get("new_gaia_rescue", "high"),
                autopilot_level=old.autopilot_level or DEFAULT_LEVEL, bot_budget=old.bot_budget)
    bank = old.time_bank
    if bank is not None:
        form.update(clock="bank", bank_hours=int(bank.hours),
                    increment_hours=int(bank.increment_hours),
                    max_bank_hours=None if bank.max_hours is None else int(bank.max_hours))
    zones = [s.timezone for s in old.seats if not s.is_bot and (s.timezone or "UTC") != "UTC"]
    if zones:  # the zone most players had, rather than the host's browser's
        form["timezone"] = max(set(zones), key=zones.count)
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
    rounds = log_by_round(log_rows(game), names, open_last=game.status == "active")
    return render_template("games/spectate.html", game=game, view=view, names=names,
                           board=board_svg(view, names), rounds=rounds,
                           time_left=time_left(game, view["awaiting"]),
                           result_words=result_words(view, names),
                           standings=standings(view, names,
                                               {s.index for s in game.seats if s.resigned}),
                           tiebreak=tiebreak_words(view, names),
                           options=options_words(game.options or {}, game.time_per_move_hours,
                                                 game.time_bank),
                           public_seats=public_seats(view, names),
                           paused=paused_words(game), cancelled=cancelled_words(game),
                           again=play_again(game), talk=table_board(game, None, limit=BOARD_LIMIT))


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
        cancelled=cancelled_words(game),
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
    again = play_again(game)
    page = render_template("games/host.html", game=game, view=view, token=token,
                           rematch_token=host_token(again.rematch) if again.rematch else None,
                           new_link=request.args.get("done") == "new-link",
                           paused=paused_words(game), cancelled=cancelled_words(game),
                           rematch_url=url_for("games.new_game", rematch=token)
                           if view.get("result") else None,
                           again=again, started=request.args.get("done") == "rematch",
                           standings=standings(view, _names(game),
                                               {s.index for s in game.seats if s.resigned}),
                           tiebreak=tiebreak_words(view, _names(game)),
                           names=_names(game), time_left=time_left(game, view["awaiting"]),
                           options=options_words(game.options or {}, game.time_per_move_hours,
                                                 game.time_bank),
                           public_seats=public_seats(view, _names(game)),
                           talk=table_board(game, None, limit=BOARD_LIMIT),
                           table=table_line(game))
    response = make_response(page)
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.post("/host/<token>/autopilot")
def autopilot(token: str) -> Any:
    """The host sets the level that plays for timed-out, absent and resigned players."""
    game = _host_game(token)
    try:
        data = AutopilotLevelForm().load(request.form)
    except ValidationError as exc:
        raise BadInput(first_errors(exc.messages_dict)["autopilot_level"]) from None
    games.set_autopilot_level(game.id, data["autopilot_level"])
    return redirect(url_for("games.host", token=token), 303)


@bp.post("/host/<token>/bot-budget")
def bot_budget(token: str) -> Any:
    """The host sets the strong computer players' rollouts per decision (empty: the
    default)."""
    game = _host_game(token)
    try:
        data = BotBudgetForm().load(bot_budget_input(request.form))
    except ValidationError as exc:
        raise BadInput(first_errors(exc.messages_dict)["bot_budget"]) from None
    games.set_bot_budget(game.id, data["bot_budget"])
    return redirect(url_for("games.host", token=token), 303)


@bp.get("/host/<token>/cancel")
def cancel_confirm(token: str) -> Response:
    """What cancelling does, and the one button that does it (a GET only shows)."""
    return _cancel_page(_host_game(token), token)


@bp.post("/host/<token>/cancel")
def cancel(token: str) -> Any:
    """Cancel, once the host pressed the confirm button (``confirm=yes``); any other post
    shows the confirm page again and changes nothing."""
    game = _host_game(token)
    try:
        ConfirmForm().load(request.form)
    except ValidationError as exc:
        return _cancel_page(game, token, error=first_errors(exc.messages_dict)["confirm"],
                            status=400)
    games.cancel_game(game.id)
    return redirect(url_for("games.host", token=token), 303)


def _cancel_page(game: Game, token: str, *, error: str = "", status: int = 200) -> Response:
    page = render_template("games/cancel.html", game=game, token=token, error=error,
                           players=[s.name for s in game.seats if not s.is_bot],
                           cancelled=cancelled_words(game))
    response = make_response(page, status)
    response.headers["Cache-Control"] = "no-store"
    return response


def _host_game(token: str) -> Game:
    return host_links.resolve_host_link(token)
