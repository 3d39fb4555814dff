"""Headers: header injection is impossible, one plain address per mail, our Message-IDs."""

from __future__ import annotations

import pytest
from flask import Flask

from pbem.extensions import db
from pbem.mail.outbound import message
from pbem.mail.outbound.compose import Mail
from pbem.mail.outbound.outbox import enqueue
from pbem.models.outbox import Outbox

MAIL = Mail(kind="test", subject="Hello", text="Hi", html="<p>Hi</p>")
HEADERS = {"Message-ID": "<a@pbem.test>"}


@pytest.mark.parametrize("value", ["x\r\nBcc: eve@example.org", "x\nBcc: eve@example.org",
                                   "x\rBcc: eve@example.org", "x\0"])
def test_a_line_break_in_any_header_value_is_refused(value: str) -> None:
    with pytest.raises(message.BadHeader):
        message.build(mail_from="pbem@pbem.test", to_addr="ana@example.org", subject=value,
                      text_body="Hi", html_body=None, headers=HEADERS)
    with pytest.raises(message.BadHeader):
        message.build(mail_from="pbem@pbem.test", to_addr="ana@example.org", subject="s",
                      text_body="Hi", html_body=None, headers={"References": value})


@pytest.mark.parametrize("addr", ["ana@example.org\r\nBcc: eve@example.org",
                                  "ana@example.org, eve@example.org",
                                  "Ana <ana@example.org>", "ana@example.org;eve@example.org",
                                  "not an address", "ana@", ""])
def test_only_one_plain_valid_address_is_accepted(addr: str) -> None:
    with pytest.raises(message.BadHeader):
        message.check_address(addr)


@pytest.mark.parametrize("name", ["To", "Cc", "Bcc", "From", "X-Anything"])
def test_recipient_and_unknown_headers_cannot_be_added(name: str) -> None:
    with pytest.raises(message.BadHeader):
        message.check_headers({name: "eve@example.org"})


def test_a_game_name_with_a_line_break_never_reaches_the_outbox(app: Flask) -> None:
    bad = Mail(kind="test", subject="Game\r\nBcc: eve@example.org", text="Hi", html=None)
    with app.app_context():
        with pytest.raises(message.BadHeader):
            enqueue(to_addr="ana@example.org", mail=bad)
        with pytest.raises(message.BadHeader):
            enqueue(to_addr="ana@example.org\nBcc: eve@example.org", mail=MAIL)
        db.session.rollback()
        assert db.session.query(Outbox).count() == 0


def test_message_ids_are_ours_and_unique(app: Flask) -> None:
    app.config["MAIL_MESSAGE_ID_DOMAIN"] = "pbem.test"
    with app.app_context():
        first = enqueue(to_addr="ana@example.org", mail=MAIL)
        second = enqueue(to_addr="ana@example.org", mail=MAIL)
        assert first.headers["Message-ID"].endswith("@pbem.test>")
        assert first.headers["Message-ID"] != second.headers["Message-ID"]
        assert first.headers["Auto-Submitted"] == "auto-generated"
        db.session.rollback()


def test_enqueue_never_commits(app: Flask) -> None:
    with app.app_context():
        enqueue(to_addr="ana@example.org", mail=MAIL)
        db.session.rollback()
        assert db.session.query(Outbox).count() == 0


def test_the_built_message_has_one_recipient_and_both_parts() -> None:
    msg = message.build(mail_from="pbem@pbem.test", to_addr="ana@example.org", subject="S",
                        text_body="plain", html_body="<p>html</p>",
                        headers={"Message-ID": "<a@pbem.test>",
                                 "List-Unsubscribe": "<https://pbem.test/mail/unsubscribe/"
                                 + "x" * 120 + ">"})
    assert msg.get_all("To") == ["ana@example.org"]
    assert msg["Cc"] is None and msg["Bcc"] is None
    assert msg.get_body(("plain",)) is not None and msg.get_body(("html",)) is not None
    # a long unsubscribe URL stays a literal URL (no RFC 2047 encoded words)
    assert "=?utf-8?" not in msg.as_string()
