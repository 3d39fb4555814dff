"""The reply token is checked before any number in it is read: a crafted token (a Unicode
digit, a 5,000-digit field, a token too long for an address) is ``forged``, never a crash."""

from __future__ import annotations

import contextlib
from types import SimpleNamespace

import pytest
from flask import Flask
from hypothesis import given, settings
from hypothesis import strategies as st

from pbem import tokens


@pytest.fixture(scope="module")
def app() -> Flask:
    """No database: a token is checked by its signature alone."""
    plain = Flask(__name__)
    plain.config.update(SECRET_KEY="reply-token-test-key", SECRET_KEY_FALLBACKS=["old-key"])
    return plain


POSITION = {"turn": {"round": 3, "seat": 1}, "board": {"2": [1, 2]}}
STAMP = tokens.position_stamp(POSITION, key="reply-token-test-key")


def _token(app: Flask, game_id: int = 7, seat: int = 1, counter: int = 0) -> str:
    with app.app_context():
        return tokens.make_reply_token(SimpleNamespace(id=game_id, state=POSITION),
                                       SimpleNamespace(index=seat, link_counter=counter))


def _old_token(app: Flask, game_id: int = 7, seat: int = 1, counter: int = 0) -> str:
    """As tokens were made before they carried the wait (mails in players' inboxes)."""
    fields = (str(game_id), str(seat), str(counter))
    signature = tokens._reply_signature(str(app.config["SECRET_KEY"]), *fields)
    return "-".join((*fields, signature))


def test_a_token_reads_back_even_in_capitals(app: Flask) -> None:
    token = _token(app, 123456, 4, 17)
    with app.app_context():
        assert tokens.read_reply_token(token.upper()) == tokens.ReplyToken(123456, 4, 17, STAMP)


def test_a_token_names_the_position_its_mail_was_composed_in(app: Flask) -> None:
    """Issue 24, point 3: the wait is signed with the seat; a token whose wait was changed
    does not read, and a longest token still fits an address's local part."""
    token = _token(app, 10**12 - 1, 4, 10**9 - 1)
    assert len(f"play+{token}") <= tokens.REPLY_TOKEN_MAX
    game_id, seat, counter, wait, signature = token.split("-")
    assert wait == STAMP
    with app.app_context():  # a state as written (number keys) is the one read back
        assert tokens.is_position({"board": {2: [1, 2]}, "turn": {"seat": 1, "round": 3}}, wait)
        assert not tokens.is_position({**POSITION, "turn": {"round": 4, "seat": 1}}, wait)
    assert tokens.position_stamp(POSITION, key="another-key") != STAMP  # keyed: no guessing
    other = "0" * len(wait) if wait != "0" * len(wait) else "1" * len(wait)
    with app.app_context(), pytest.raises(tokens.BadToken):
        tokens.read_reply_token("-".join((game_id, seat, counter, other, signature)))


def test_a_token_made_before_the_wait_was_carried_still_reads(app: Flask) -> None:
    with app.app_context():
        assert tokens.read_reply_token(_old_token(app)) == tokens.ReplyToken(7, 1, 0, None)


@pytest.mark.parametrize("crafted", [
    "7-²-0-{sig}",  # a superscript two: str.isdigit() says yes, int() says no
    "7-1-٠-{sig}",  # an Arabic-Indic zero
    "７-1-0-{sig}",  # a fullwidth seven
    "7-1-" + "9" * 5000 + "-{sig}",  # past int()'s 4,300-digit limit
    "9" * 13 + "-1-0-{sig}",
    "07-1-0-{sig}",  # a number spelt another way is another message: the signature fails
    "7-1-0-{sig}-1", "7-1-0", "-7-1-0-{sig}", "7 -1-0-{sig}", "",
])
def test_a_crafted_token_is_forged_not_a_crash(app: Flask, crafted: str) -> None:
    signature = _old_token(app).rsplit("-", 1)[1]
    with app.app_context(), pytest.raises(tokens.BadToken) as refused:
        tokens.read_reply_token(crafted.format(sig=signature))
    assert refused.value.reason in ("forged", "missing")


@settings(max_examples=300, deadline=None, database=None)
@given(st.text(max_size=120) | st.from_regex(
    r"[0-9²٠-٩]{1,30}-[0-9²]{1,6}-[0-9]{1,12}-[0-9a-f]{24}", fullmatch=True))
def test_any_text_is_a_token_or_bad_token(app: Flask, text: str) -> None:
    with app.app_context(), contextlib.suppress(tokens.BadToken):  # and nothing else
        tokens.read_reply_token(text)


def test_a_token_of_the_previous_key_still_reads(app: Flask) -> None:
    app.config["SECRET_KEY"] = "old-key"
    try:
        old = _token(app)
    finally:
        app.config["SECRET_KEY"] = "reply-token-test-key"
    with app.app_context():
        assert tokens.read_reply_token(old) == tokens.ReplyToken(
            7, 1, 0, tokens.position_stamp(POSITION, key="old-key"))
        assert tokens.is_position(POSITION, tokens.read_reply_token(old).wait or "")
