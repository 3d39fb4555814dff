"""The bounds on a received mail (issue 24, point 2; pbem/mail/inbound/limits.py): hostile
mail is refused before the parsers, never with an error, and the mail people write is still
read whole — a long quote header is still found, a reply with pictures is still read."""

from __future__ import annotations

from collections.abc import Iterator
from email.message import EmailMessage

import pytest
from flask import Flask
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.mail.inbound import limits, received

from . import hostile

TO = "play+12-0-0-" + "a" * 24 + "@pbem.test"


@pytest.fixture(autouse=True)
def context() -> Iterator[None]:
    app = Flask(__name__)
    app.config["INBOUND_ADDRESS"] = "play@pbem.test"
    with app.app_context():
        yield


@pytest.mark.parametrize("kind", ["deep", "wide", "header_bomb"])
def test_a_mail_of_too_many_parts_or_headers_is_not_parsed(kind: str) -> None:
    raw = {**hostile.KINDS, **hostile.MORE_KINDS}[kind](TO, 0)
    inbound = received.from_bytes(raw)
    assert inbound.unreadable == "too_complex" and inbound.lines == ()
    assert inbound.reply_token() == TO.split("+")[1].split("@")[0]  # its player can be told
    assert inbound.sender == "mallory@evil.test" and inbound.message_id.endswith("-0@evil.test>")


@pytest.mark.parametrize("n", range(len(hostile.BROKEN_CHARSETS)))
def test_a_broken_charset_is_read_as_text_or_nothing_never_an_error(n: int) -> None:
    inbound = received.from_bytes(hostile.broken_charset(TO, n))
    assert inbound.unreadable is None
    assert all(isinstance(line, str) for line in inbound.lines)


def test_a_crafted_token_is_read_as_written_and_the_parser_bomb_is_cut() -> None:
    for n in range(len(hostile.CRAFTED_TOKENS)):
        assert received.from_bytes(hostile.crafted_token(TO, n)).lines == ("status",)
    lines = received.from_bytes(hostile.parser_bomb(TO, 0)).lines
    assert len(lines) == 1 and len(lines[0]) <= limits.LINE_CHARS + 1


def _mail(body: str, *, pictures: int = 0) -> bytes:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Message-ID"] = "Ana <ana@example.org>", TO, "<r@c.test>"
    msg.set_content(body)
    for n in range(pictures):
        msg.add_attachment(b"\x89PNG" + bytes(50), maintype="image", subtype="png",
                           filename=f"logo{n}.png")
    return msg.as_bytes()


def test_a_long_quote_header_is_still_found_after_the_cut() -> None:
    header = ("On Tuesday, 1 December 2026 at 10:00:00 Central European Standard Time, "
              "Alien Frontiers <play+123456-0-0-abcdefabcdefabcdefabcdef@pbem.example.org> "
              "wrote:")
    assert len(header) > limits.LINE_CHARS
    body = f"dock 3 3 shipyard\nend\n\n{header}\n> Your turn\n> dock 1 solar_converter\n"
    assert received.from_bytes(_mail(body)).lines == ("dock 3 3 shipyard", "end")


def test_an_outlook_reply_and_a_reply_with_pictures_are_read() -> None:
    outlook = ("dock 2 solar_converter\n\n________________________________\nFrom: Alien "
               "Frontiers <play@pbem.test>\nSent: Tuesday, 1 December 2026 10:00\nTo: Ana\n"
               "Subject: Alien Frontiers: Friday\n\nYour turn\n")
    assert received.from_bytes(_mail(outlook)).lines == ("dock 2 solar_converter",)
    with_pictures = received.from_bytes(_mail("status\n", pictures=12))
    assert with_pictures.unreadable is None and with_pictures.lines == ("status",)


def test_only_the_first_lines_reach_the_reply_parser() -> None:
    text = "\n".join(f"line {n}" for n in range(1000))
    assert limits.for_reply_parser(text).count("\n") == limits.SCAN_LINES - 1
    long = "x" * 60 + "y" * 10_000 + "z" * 60
    assert limits.for_reply_parser(long) == "x" * 50 + " " + "z" * 50
    assert len(received.new_lines("a" * 10 * limits.TEXT_CHARS)[0]) <= limits.LINE_CHARS + 1


def test_a_header_block_past_its_bound_is_too_complex_even_without_an_end() -> None:
    raw = b"From: a@b.c\r\nX-Long: " + b"x" * (2 * limits.HEADER_BYTES)
    assert len(limits.split_head(raw)) == limits.HEADER_BYTES + 1
    assert received.from_bytes(raw).unreadable == "too_complex"


@settings(max_examples=400, deadline=None, database=None)
@given(head=st.lists(st.tuples(st.sampled_from(["From", "To", "Cc", "Subject", "Message-ID",
                                                "References", "Content-Type", "Auto-Submitted",
                                                "X-Anything"]),
                               st.binary(max_size=60)), max_size=8),
       body=st.binary(max_size=300))
def test_any_bytes_are_read_as_a_mail_or_refused_never_an_error(
        head: list[tuple[str, bytes]], body: bytes) -> None:
    raw = b"".join(name.encode() + b": " + value + b"\r\n" for name, value in head) \
        + b"\r\n" + body
    inbound = received.from_bytes(raw)
    assert all(" " < ch < "\x7f" for ch in inbound.message_id)
    assert all(isinstance(line, str) for line in inbound.lines)
