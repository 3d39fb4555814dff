"""Table talk's inputs (docs/api.md, "Table talk"): the turn page's forms and the API body.

Shape only: the text's own rules (1 to 1,000 characters of plain text) are the service's,
``pbem.services.table_talk.clean_text``, so the page, the API and a reply by mail refuse
alike. The length here only stops a body far past any message from being read further.
"""

from __future__ import annotations

from marshmallow import EXCLUDE, RAISE, Schema, fields, validate

TOO_LONG = "A message is at most 1,000 characters."


class SayForm(Schema):
    """POST /play/<link>/say: the page's form stamp and the message."""

    class Meta:
        unknown = EXCLUDE  # csrf_token is checked by Flask-WTF before the view runs

    form_token = fields.String(required=True, validate=validate.Length(max=500))
    text = fields.String(required=True, validate=validate.Length(max=4000, error=TOO_LONG),
                         error_messages={"required": "Write your message first."})


class DeleteForm(Schema):
    """POST /play/<link>/say/<id>/delete: the page's form stamp."""

    class Meta:
        unknown = EXCLUDE

    form_token = fields.String(required=True, validate=validate.Length(max=500))


class MessageRequest(Schema):
    """``{"text": "…"}``: one message, as written."""

    class Meta:
        unknown = RAISE

    text = fields.String(required=True, validate=validate.Length(max=4000, error=TOO_LONG))


class MessagesQuery(Schema):
    """``GET …/messages?after=<id>``: only the messages after the one the client has."""

    class Meta:
        unknown = RAISE

    after = fields.Integer(load_default=0, validate=validate.Range(min=0))
