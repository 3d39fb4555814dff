"""Marshmallow schemas for the pages' forms: each view parses its input here, then calls one
service. Messages are written for the person filling the form in.

`SeatSpec` (one seat of a new game) lives here, below the services that take it, so that the
create form can load into it without importing upward."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from marshmallow import (
    EXCLUDE,
    Schema,
    ValidationError,
    fields,
    post_load,
    validate,
    validates_schema,
)
from werkzeug.datastructures import MultiDict

from pbem.clock import TimeBank
from pbem.engine.bots.levels import DEFAULT_LEVEL, LEVELS, MAX_BUDGET, MIN_BUDGET


@dataclass
class SeatSpec:
    """One seat of a game to create: a person (name + email) or a computer player."""

    name: str
    email: str | None
    is_bot: bool = False
    timezone: str = "UTC"
    level: str | None = None  # a computer player's bot level (None: the default level)


MAX_SEATS = 5  # 5 only with Factions: the engine refuses otherwise, in its words
MIN_SEATS = 2


class ActForm(Schema):
    """POST /play/<link>/act: the version stamp and one action in notation."""

    class Meta:
        unknown = EXCLUDE  # csrf_token is checked by Flask-WTF before the view runs

    form_token = fields.String(required=True, validate=validate.Length(max=500))
    action = fields.String(required=True, validate=validate.Length(min=1, max=200))


class UndoForm(Schema):
    class Meta:
        unknown = EXCLUDE

    form_token = fields.String(required=True, validate=validate.Length(max=500))


class VacationForm(Schema):
    """POST /play/<link>/vacation: days off (the service checks the allowance)."""

    class Meta:
        unknown = EXCLUDE

    form_token = fields.String(required=True, validate=validate.Length(max=500))
    days = fields.Integer(required=True, error_messages={
        "required": "Say how many days you will be away.",
        "invalid": "Days off must be a whole number."})


QUIET_HOURS: dict[str, Any] = {"required": "Choose your quiet hours.",
                               "invalid": "Quiet hours are whole hours."}


class SettingsForm(Schema):
    """POST /play/<link>/settings: mail preference, time zone and quiet hours."""

    class Meta:
        unknown = EXCLUDE

    form_token = fields.String(required=True, validate=validate.Length(max=500))
    notify = fields.String(required=True, validate=validate.Length(max=16),
                           error_messages={"required": "Choose which mails you want."})
    timezone = fields.String(required=True, validate=validate.Length(
                                 min=1, max=64, error="Enter a time zone such as Europe/Lisbon."),
                             error_messages={"required": "Enter your time zone."})
    quiet_start = fields.Integer(required=True, error_messages=QUIET_HOURS)
    quiet_end = fields.Integer(required=True, error_messages=QUIET_HOURS)
    # Table talk in my mails (issue 27): "on" or "off"; a form without it leaves it as it is.
    table_talk_mail = fields.String(load_default=None, validate=validate.OneOf(
        ("on", "off"), error="Choose whether your mails show the table talk."))


CONFIRM_WORDS = "Press the confirm button to go on: nothing was changed."


class ConfirmForm(Schema):
    """A step that cannot be undone (resign, cancel): the page's confirm button posts
    ``confirm=yes``; anything else changes nothing."""

    class Meta:
        unknown = EXCLUDE

    confirm = fields.String(required=True, validate=validate.Equal("yes", error=CONFIRM_WORDS),
                            error_messages={"required": CONFIRM_WORDS})


class ResignForm(ConfirmForm):
    """POST /play/<link>/resign: the seat's form token (this game and seat) and the
    confirmation."""

    form_token = fields.String(required=True, validate=validate.Length(max=500))


class MagicForm(Schema):
    class Meta:
        unknown = EXCLUDE

    email = fields.Email(required=True, error_messages={"invalid": "Enter an email address."})


class SeatForm(Schema):
    """One row of the create form: a person (name + email) or a computer player."""

    name = fields.String(load_default="", validate=validate.Length(
        max=40, error="A player’s name is at most 40 characters."))
    email = fields.String(load_default="", validate=validate.Length(
        max=254, error="An email address is at most 254 characters."))
    computer = fields.Boolean(load_default=False, error_messages={
        "invalid": "Tick “computer player” or leave it empty."})
    level = fields.String(load_default=DEFAULT_LEVEL, validate=validate.OneOf(
        LEVELS, error="Choose a computer player's level: " + ", ".join(LEVELS) + "."))


MAX_BANK_HOURS = 60 * 24
BANK_ERROR = f"The time bank is a whole number of hours, 1 to {MAX_BANK_HOURS}."
INCREMENT_ERROR = "The time added after each turn is a whole number of hours, 0 to 336."
CAP_ERROR = f"The time bank's cap is a whole number of hours, 1 to {MAX_BANK_HOURS}, or empty."
AUTOPILOT_LEVEL_ERROR = "Choose the autopilot's level: " + ", ".join(LEVELS) + "."
BOT_BUDGET_ERROR = (f"The strong computer players' rollouts per decision are a whole number, "
                    f"{MIN_BUDGET} to {MAX_BUDGET}, or empty for the default.")


def bot_budget_field(**extra: Any) -> fields.Integer:
    """The strong computer players' rollouts per decision (``engine.bots.levels``'s range);
    None, an empty field, is the default."""
    return fields.Integer(allow_none=True, validate=validate.Range(
        min=MIN_BUDGET, max=MAX_BUDGET, error=BOT_BUDGET_ERROR),
        error_messages={"invalid": BOT_BUDGET_ERROR, "required": BOT_BUDGET_ERROR}, **extra)


def blank_is_none(value: str | None) -> str | None:
    """A number field left empty (or only spaces) as None: the field's default."""
    return None if value is None or not value.strip() else value.strip()


class NewGameForm(Schema):
    """GET/POST /games/new."""

    class Meta:
        unknown = EXCLUDE

    name = fields.String(required=True, validate=validate.Length(
        min=1, max=80, error="Give the game a name of 1 to 80 characters."),
        error_messages={"required": "Give the game a name."})
    # The address itself is checked by the view with the outbox's own rule (the one that
    # says what is wrong with it); here only its presence and length.
    host_email = fields.String(required=True, validate=validate.Length(
        min=1, max=254, error="Enter your email address (at most 254 characters)."),
        error_messages={"required": "Enter your email address."})
    hours = fields.Integer(load_default=48, validate=validate.Range(
        min=1, max=24 * 14, error="Time per move is a whole number of hours, 1 to 336 hours."),
        error_messages={"invalid": "Time per move is a whole number of hours, 1 to 336 hours."})
    clock = fields.String(load_default="move", validate=validate.OneOf(
        ("move", "bank"), error="Choose a time per move or a time bank."))
    bank_hours = fields.Integer(load_default=72, validate=validate.Range(
        min=1, max=MAX_BANK_HOURS, error=BANK_ERROR), error_messages={"invalid": BANK_ERROR})
    increment_hours = fields.Integer(load_default=24, validate=validate.Range(
        min=0, max=24 * 14, error=INCREMENT_ERROR), error_messages={"invalid": INCREMENT_ERROR})
    max_bank_hours = fields.Integer(load_default=None, allow_none=True, validate=validate.Range(
        min=1, max=MAX_BANK_HOURS, error=CAP_ERROR), error_messages={"invalid": CAP_ERROR})
    factions = fields.Boolean(load_default=True)
    new_gaia_rescue = fields.String(load_default="high", validate=validate.OneOf(
        ("high", "low"), error="Choose the high or the low rescue."),
        error_messages={"invalid": "Choose the high or the low rescue."})
    autopilot_level = fields.String(load_default=DEFAULT_LEVEL, validate=validate.OneOf(
        LEVELS, error=AUTOPILOT_LEVEL_ERROR))
    bot_budget = bot_budget_field(load_default=None)
    seats = fields.List(fields.Nested(SeatForm), load_default=list)
    # every player's time zone to start with (each changes theirs in the mail settings);
    # the page fills in the browser's own zone. Empty: UTC.
    timezone = fields.String(load_default="", validate=validate.Length(
        max=64, error="A time zone is a name such as Europe/Lisbon."))
    same_address_ok = fields.Boolean(load_default=False)  # the host saw the shared address

    @validates_schema(skip_on_field_errors=False)
    def _seats(self, data: dict[str, Any], **_: Any) -> None:
        """Every player's problem at once, each under that row's key (``seat-<i>``), so the
        page shows it beside the row; too few or too many players under ``seats``."""
        rows = data.get("seats") or []
        errors: dict[str, list[str]] = {}
        # A row missing a field failed that field's own check (its message stands already)
        complete = [all(k in s for k in ("name", "email", "computer")) for s in rows]
        filled = [s for s, ok in zip(rows, complete, strict=True)
                  if not ok or s["name"].strip() or s["computer"]]
        if not MIN_SEATS <= len(filled) <= MAX_SEATS:
            errors["seats"] = [f"Name {MIN_SEATS} to {MAX_SEATS} players."]
        for i, s in enumerate(rows):
            if not complete[i]:
                continue
            name = s["name"].strip()
            if not name and not s["computer"]:
                continue  # an empty row: an optional player left out
            if not name:
                errors[seat_key(i)] = [f"Player {i + 1} needs a name."]
            elif not s["computer"] and not s["email"].strip():
                errors[seat_key(i)] = [
                    f"Enter {name}’s email address, or tick “computer player”."]
        if errors:
            raise ValidationError(errors)

    @post_load
    def _specs(self, data: dict[str, Any], **_: Any) -> dict[str, Any]:
        data["specs"] = [
            SeatSpec(s["name"].strip(), None if s["computer"] else s["email"].strip(),
                     is_bot=bool(s["computer"]), level=s["level"] if s["computer"] else None,
                     timezone=data["timezone"].strip() or "UTC")
            for s in data["seats"] if s["name"].strip() or s["computer"]
        ]
        data["time_bank"] = TimeBank(
            float(data["bank_hours"]), float(data["increment_hours"]),
            None if data["max_bank_hours"] is None else float(data["max_bank_hours"]),
        ) if data["clock"] == "bank" else None
        data["options"] = {"factions": bool(data["factions"])}
        if data["factions"]:
            data["options"]["new_gaia_rescue"] = data["new_gaia_rescue"]
        return data


class AutopilotLevelForm(Schema):
    """POST /host/<token>/autopilot: the level that plays for timed-out or resigned players."""

    class Meta:
        unknown = EXCLUDE

    autopilot_level = fields.String(required=True, validate=validate.OneOf(
        LEVELS, error=AUTOPILOT_LEVEL_ERROR), error_messages={"required": AUTOPILOT_LEVEL_ERROR})


class BotBudgetForm(Schema):
    """POST /host/<token>/bot-budget: the strong computer players' rollouts per decision. The
    field must be sent; empty (None, after ``blank_is_none``) is the default."""

    class Meta:
        unknown = EXCLUDE

    bot_budget = bot_budget_field(required=True)


def bot_budget_input(form: MultiDict[str, str]) -> dict[str, Any]:
    """The host's budget form for the schema: an empty field is None (the default); a
    missing one stays missing (the schema asks for it)."""
    return {"bot_budget": blank_is_none(form["bot_budget"])} if "bot_budget" in form else {}


def seat_key(row: int) -> str:
    """The error key of the create form's player row ``row`` (0-based)."""
    return f"seat-{row}"


def new_game_input(form: MultiDict[str, str], *, blank: bool = False) -> dict[str, Any]:
    """Flatten the HTML form (seat-0-name, seat-0-email, seat-0-computer…) for the schema.
    `blank`: the empty form's defaults (Factions on: an unticked box is simply absent)."""
    seats = []
    for i in range(MAX_SEATS):
        seats.append({
            "name": form.get(f"seat-{i}-name", ""),
            "email": form.get(f"seat-{i}-email", ""),
            "computer": form.get(f"seat-{i}-computer") == "on",
            "level": form.get(f"seat-{i}-level") or DEFAULT_LEVEL,
        })
    return {
        "name": form.get("name", ""),
        "host_email": form.get("host_email", ""),
        "hours": form.get("hours") or 48,
        "clock": form.get("clock") or "move",
        "bank_hours": form.get("bank_hours") or 72,
        "increment_hours": form.get("increment_hours", "24") or 0,  # left empty: none
        "max_bank_hours": form.get("max_bank_hours") or None,
        "factions": blank or form.get("factions") == "on",
        "new_gaia_rescue": form.get("new_gaia_rescue") or "high",
        "autopilot_level": form.get("autopilot_level") or DEFAULT_LEVEL,
        "bot_budget": blank_is_none(form.get("bot_budget")),
        "seats": seats,
        "timezone": form.get("timezone", ""),
        "same_address_ok": form.get("same_address_ok") == "on",
    }


def new_game_errors(messages: Any) -> dict[str, str]:
    """The create form's messages, one per field as the page places them: a player row's
    own field errors (nested under ``seats``) go under that row's key, beside the row."""
    nested = messages.get("seats") if isinstance(messages, dict) else None
    flat = {k: v for k, v in messages.items() if k != "seats"} if nested is not None \
        else messages
    out = first_errors(flat)
    if isinstance(nested, dict):  # {row: {field: [message]}} from SeatForm
        for row, fields_ in nested.items():
            if isinstance(row, int):
                out.setdefault(seat_key(row), first_errors({"_": fields_})["_"])
    elif nested:  # a list of messages (too few/many players)
        out["seats"] = first_errors({"seats": nested})["seats"]
    return out


def first_errors(messages: Any) -> dict[str, str]:
    """Marshmallow's nested messages as one sentence per top-level field."""
    out: dict[str, str] = {}
    if not isinstance(messages, dict):
        return {"_": str(messages)}
    for key, value in messages.items():
        while isinstance(value, dict | list) and value:
            value = next(iter(value.values())) if isinstance(value, dict) else value[0]
        out[str(key)] = str(value)
    return out


def messages_of(error: ValidationError) -> dict[str, Any]:
    """The error's messages by field (marshmallow's `normalized_messages`, which ships no
    annotations: typed once here)."""
    messages: dict[str, Any] = error.normalized_messages()  # type: ignore[no-untyped-call]
    return messages
