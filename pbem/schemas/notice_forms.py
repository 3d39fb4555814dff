"""The forms of notices in chat apps: a seat's channels and options, the host's table channel.
Messages are written for the person filling the form in."""

from __future__ import annotations

from typing import Any

from marshmallow import EXCLUDE, Schema, fields, post_load, validate


def url_field() -> fields.String:
    return fields.String(required=True, validate=validate.Length(
        min=1, max=2000, error="Paste the webhook URL (at most 2,000 characters)."),
        error_messages={"required": "Paste the webhook URL of the channel."})


class ChannelForm(Schema):
    """POST /play/<link>/notices: a channel to add."""

    class Meta:
        unknown = EXCLUDE

    form_token = fields.String(required=True, validate=validate.Length(max=500))
    url = url_field()




def channel_field() -> fields.Integer:
    return fields.Integer(required=True, strict=False, error_messages={
        "required": "Say which channel.", "invalid": "Say which channel."})


class ChannelPickForm(Schema):
    """POST /play/<link>/notices/remove|up|resume: which of the seat's channels."""

    class Meta:
        unknown = EXCLUDE

    form_token = fields.String(required=True, validate=validate.Length(max=500))
    channel = channel_field()


class TableChannelPickForm(Schema):
    """POST /host/<token>/table-channel/remove|resume: the table channel."""

    class Meta:
        unknown = EXCLUDE

    channel = channel_field()


class NoticeOptionsForm(Schema):
    """POST /play/<link>/notices/options: the handle and the escalation hours ("" = never)."""

    class Meta:
        unknown = EXCLUDE

    form_token = fields.String(required=True, validate=validate.Length(max=500))
    handle = fields.String(load_default="", validate=validate.Length(
        max=64, error="A handle is at most 64 characters."))
    escalate_hours = fields.String(load_default="", validate=validate.Length(max=3))

    @post_load
    def hours(self, data: dict[str, Any], **_: Any) -> dict[str, Any]:
        raw = str(data.get("escalate_hours") or "").strip()
        data["escalate_hours"] = int(raw) if raw.isdigit() else None
        return data


class TableChannelForm(Schema):
    """POST /host/<token>/table-channel: the game's table channel."""

    class Meta:
        unknown = EXCLUDE

    url = url_field()
