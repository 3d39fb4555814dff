"""Issue 27: what a person typed never pings anyone on the table channel, whatever it is,
and a handle is mentioned only in its service's own form."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from pbem.mail.outbound.chat import words

DISCORD_PING = re.compile(r"@(everyone|here)|<@[!&]?\d+>")
SLACK_PING = re.compile(r"<[!@#]")
MATRIX_PING = re.compile(r"@room")


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from("@<>!&#ehryvonm0123456789 \u200b"), max_size=40)
       | st.text(max_size=40))
def test_typed_text_is_inert_on_every_service(text: str) -> None:
    assert not DISCORD_PING.search(words.plain("discord", text))
    assert not SLACK_PING.search(words.plain("slack", text))
    assert not MATRIX_PING.search(words.plain("matrix", text))


def test_a_handle_is_mentioned_in_its_services_form_only() -> None:
    assert words.mention("discord", "401234567890123456", "Ben") == "<@401234567890123456> (Ben)"
    assert words.mention("slack", "U012AB3CD", "Ben") == "<@U012AB3CD> (Ben)"
    assert words.mention("matrix", "@ben:matrix.org", "Ben") == "@ben:matrix.org (Ben)"
    assert words.mention("telegram", "@ben_plays", "Ben") == "@ben_plays (Ben)"
    assert words.mention("discord", "U012AB3CD", "Ben") == "Ben"  # a Slack id on Discord
    assert words.mention("ntfy", "@ben_plays", "Ben") == "Ben"
    assert words.mention("discord", None, "@everyone") == "@\u200beveryone"
    assert words.handle_service("@everyone") == "telegram"  # a name there, no mass ping
    assert words.handle_service("ben!") is None
