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

from pbem.engine.levels import DEFAULT_LEVEL, LEVELS


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


class MagicForm(Schema):
    class Meta:
        unknown = EXCLUDE

    email = fields.Email(required=True, error_messages={"invalid": "Enter an email address."})


class SeatForm(Schema):
    """One row of the create form: a person (name + email) or a computer player."""

    name = fields.String(load_default="", validate=validate.Length(max=40))
    email = fields.String(load_default="", validate=validate.Length(max=254))
    computer = fields.Boolean(load_default=False)
    level = fields.String(load_default=DEFAULT_LEVEL, validate=validate.OneOf(
        LEVELS, error="Choose a computer player's level: " + ", ".join(LEVELS) + "."))


AUTOPILOT_LEVEL_ERROR = "Choose the autopilot's level: " + ", ".join(LEVELS) + "."


class NewGameForm(Schema):
    """GET/POST /games/new."""

    class Meta:
        unknown = EXCLUDE

    name = fields.String(required=True, validate=validate.Length(min=1, max=80),
                         error_messages={"required": "Give the game a name."})
    host_email = fields.Email(required=True,
                              error_messages={"required": "Enter your email address.",
                                              "invalid": "Enter a valid email address."})
    hours = fields.Integer(load_default=48, validate=validate.Range(min=1, max=24 * 14),
                           error_messages={"invalid": "Hours per move must be a number."})
    factions = fields.Boolean(load_default=True)
    new_gaia_rescue = fields.String(load_default="high",
                                    validate=validate.OneOf(("high", "low")),
                                    error_messages={"invalid": "Choose high or low."})
    autopilot_level = fields.String(load_default=DEFAULT_LEVEL, validate=validate.OneOf(
        LEVELS, error=AUTOPILOT_LEVEL_ERROR))
    seats = fields.List(fields.Nested(SeatForm), load_default=list)

    @validates_schema
    def _seats(self, data: dict[str, Any], **_: Any) -> None:
        filled = [s for s in data.get("seats", []) if s["name"].strip() or s["computer"]]
        if not MIN_SEATS <= len(filled) <= MAX_SEATS:
            raise ValidationError(f"Name {MIN_SEATS} to {MAX_SEATS} players.", "seats")
        for n, s in enumerate(filled, start=1):
            if not s["name"].strip():
                raise ValidationError(f"Player {n} needs a name.", "seats")
            if not s["computer"] and "@" not in s["email"]:
                raise ValidationError(
                    f"Enter {s['name'].strip()}’s email address, or tick “computer player”.",
                    "seats")

    @post_load
    def _specs(self, data: dict[str, Any], **_: Any) -> dict[str, Any]:
        data["specs"] = [
            SeatSpec(s["name"].strip(), None if s["computer"] else s["email"].strip(),
                     is_bot=bool(s["computer"]), level=s["level"] if s["computer"] else None)
            for s in data["seats"] if s["name"].strip() or s["computer"]
        ]
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
        "factions": blank or form.get("factions") == "on",
        "new_gaia_rescue": form.get("new_gaia_rescue") or "high",
        "autopilot_level": form.get("autopilot_level") or DEFAULT_LEVEL,
        "seats": seats,
    }


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
