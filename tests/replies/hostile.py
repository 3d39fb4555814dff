"""Hostile mail, written once as raw bytes (CRLF lines, as a mailbox keeps them): the kinds
issue 24 names (deep nesting, 20,000 parts, crafted tokens, broken charsets, 20 MB) and two
more the bounds answer (a header bomb, a line the reply parser chokes on). Used by the
tests (tests/replies/test_hostile_mail.py) and the benchmark (benchmarks/inbound.py).

Each is addressed to the reply address it is given, as an attacker who saw one Reply-To
would write: the token is real, the From is the attacker's unless ``sender`` says otherwise.
"""

from __future__ import annotations

from collections.abc import Callable

ATTACKER = "Mallory <mallory@evil.test>"
CRAFTED_TOKENS = (
    "{game}-²-0-{sig}",  # a Unicode digit: str.isdigit() is true, int() raises
    "{game}-0-" + "9" * 5000 + "-{sig}",  # a 5,000-digit field
    "{game}-0-0-" + "f" * 24,  # the right shape, a wrong signature
    "٣-0-0-{sig}", "{game}-0-0", "{game}-0-0-{sig}-" + "x" * 200,
)


def _head(to: str, sender: str, mid: str, extra: str = "") -> bytes:
    return (f"From: {sender}\r\nTo: {to}\r\nSubject: Re: Alien Frontiers\r\n"
            f"Message-ID: <{mid}@evil.test>\r\nMIME-Version: 1.0\r\n{extra}").encode()


def deep(to: str, n: int, sender: str = ATTACKER, levels: int = 1500) -> bytes:
    """1,500 nested multipart/mixed parts (about 100 KB): the walk recursed past the stack."""
    opening = b"".join(b'Content-Type: multipart/mixed; boundary="b%d"\r\n\r\n--b%d\r\n' % (i, i)
                       for i in range(levels))
    closing = b"".join(b"\r\n--b%d--\r\n" % i for i in reversed(range(levels)))
    return (_head(to, sender, f"deep-{n}") + opening
            + b"Content-Type: text/plain\r\n\r\nstatus\r\n" + closing)


def wide(to: str, n: int, sender: str = ATTACKER, parts: int = 20_000) -> bytes:
    """20,000 parts in one multipart (about 200 KB): seconds of parsing."""
    body = b"".join(b"--b\r\nContent-Type: text/plain\r\n\r\nx\r\n" for _ in range(parts))
    return (_head(to, sender, f"wide-{n}", 'Content-Type: multipart/mixed; boundary="b"\r\n')
            + b"\r\n" + body + b"--b--\r\n")


def crafted_token(to: str, n: int, sender: str = ATTACKER) -> bytes:
    """The reply address with its token replaced by one of ``CRAFTED_TOKENS``."""
    local, _, domain = to.partition("@")
    base, _, token = local.partition("+")
    game, _, rest = token.partition("-")
    signature = rest.rsplit("-", 1)[-1]
    crafted = CRAFTED_TOKENS[n % len(CRAFTED_TOKENS)].format(game=game, sig=signature)
    return (_head(f"{base}+{crafted}@{domain}", sender, f"token-{n}",
                  "Content-Type: text/plain\r\n") + b"\r\nstatus\r\n")


BROKEN_CHARSETS = (
    'Content-Type: text/plain; charset="x-no-such-charset"\r\n\r\nstatus \xff\xfe\r\n',
    'Content-Type: text/plain; charset="utf-8"\r\nContent-Transfer-Encoding: base64\r\n\r\n'
    '!!!not base64\xff\r\n',
    'Content-Type: text/plain; charset="utf-8"\r\n\r\n\xc3\x28 \xed\xa0\x80 status\r\n',
    'Subject: =?x-unknown?q?=FF=FE?=\r\nContent-Type: text/html; charset="utf-16"\r\n\r\n'
    '<p>\xff</p>\r\n',
    'Content-Type: text/plain; charset="utf-7"\r\n\r\n+AGEAYgBj-+ZZZ-\r\n',
)


def broken_charset(to: str, n: int, sender: str = ATTACKER) -> bytes:
    tail = BROKEN_CHARSETS[n % len(BROKEN_CHARSETS)].encode("latin-1")
    return _head(to, sender, f"charset-{n}") + tail


_TWENTY_MB = b"x" * 998 + b"\r\n"


def huge(to: str, n: int, sender: str = ATTACKER, size: int = 20 * 1024 * 1024) -> bytes:
    """A plain mail of ``size`` bytes (20 MB): 38-46 s of CPU before the limit."""
    head = _head(to, sender, f"huge-{n}", "Content-Type: text/plain\r\n") + b"\r\nstatus\r\n"
    return head + _TWENTY_MB * max((size - len(head)) // len(_TWENTY_MB), 1)


def header_bomb(to: str, n: int, sender: str = ATTACKER) -> bytes:
    """2,000 header fields of addresses (about 90 KB of headers)."""
    fields = b"".join(b"Cc: a%d@example.org, b%d@example.org\r\n" % (i, i) for i in range(2000))
    return _head(to, sender, f"headers-{n}", "Content-Type: text/plain\r\n") + fields \
        + b"\r\nstatus\r\n"


def parser_bomb(to: str, n: int, sender: str = ATTACKER) -> bytes:
    """64 KB of "On … wrote" lines: the reply parser's quote-header patterns are quadratic in
    a line's length (a single such line of 64 KB took a minute)."""
    line = b"On Tue, Ana wrote something " * 2400
    return (_head(to, sender, f"parser-{n}", "Content-Type: text/plain\r\n") + b"\r\n"
            + line[:65000] + b"\r\n")


KINDS: dict[str, Callable[[str, int], bytes]] = {
    "deep": deep, "wide": wide, "crafted_token": crafted_token,
    "broken_charset": broken_charset, "huge": huge,
}
MORE_KINDS: dict[str, Callable[[str, int], bytes]] = {
    "header_bomb": header_bomb, "parser_bomb": parser_bomb,
}
