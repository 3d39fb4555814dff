"""Issue 27, point 2, "Safe targets only": https to public hosts, every address the name
resolves to checked when the channel is saved and again at every post (DNS rebinding), the
secret never shown back, and the test settings that reach a fake on loopback."""

from __future__ import annotations

import logging
import socket
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask

from pbem.mail.outbound.chat import guard, post, targets
from tests.notices import fake_chat
from tests.notices.conftest import DISCORD_SECRET, SLACK_SECRET, discord_url, ntfy_url, slack_url


def _app(**config: Any) -> Flask:
    app = Flask(__name__)
    app.config.update(config)
    return app


@pytest.fixture
def fake() -> Iterator[fake_chat.FakeChat]:
    server = fake_chat.start()
    yield server
    fake_chat.stop(server)


def _resolver(answers: dict[str, list[str]]) -> Callable[..., Any]:
    """A name service: ``answers`` for the names it knows, the machine's for the rest."""
    real = guard._real_getaddrinfo

    def resolve(host: Any, port: Any, *args: Any, **kwargs: Any) -> Any:
        if host in answers:
            return [(socket.AF_INET6 if ":" in a else socket.AF_INET, socket.SOCK_STREAM, 6,
                     "", (a, port or 443) if ":" not in a else (a, port or 443, 0, 0))
                    for a in answers[host]]
        return real(host, port, *args, **kwargs)
    return resolve


@pytest.mark.parametrize("url, why", [
    ("ntfy://ntfy.example.org/topic", "https only"),
    ("matrix://user:pass@matrix.example.org/#room", "https only"),
    ("https://example.org/hook", "Use a Discord, Slack"),
    ("mailto://someone@example.org", "Use a Discord, Slack"),
    ("ntfys://localhost/topic", "public hosts only"),
    ("ntfys://127.0.0.1/topic", "public hosts only"),
    ("ntfys://10.1.2.3/topic", "public hosts only"),
    ("ntfys://192.168.1.20/topic", "public hosts only"),
    ("ntfys://169.254.169.254/topic", "public hosts only"),  # a cloud's metadata service
    ("ntfys://[::1]/topic", "public hosts only"),
    ("ntfys://[::ffff:127.0.0.1]/topic", "public hosts only"),
    ("ntfys://mixed.example/topic", "public hosts only"),  # one public, one private address
    ("", "Paste the webhook URL"),
    ("https://discord.com/api/webhooks/1 2/x", "spaces"),
])
def test_unsafe_or_unknown_targets_are_refused_with_a_reason(
        url: str, why: str, monkeypatch: pytest.MonkeyPatch) -> None:
    guard._install()
    monkeypatch.setattr(guard, "_real_getaddrinfo", _resolver({
        "mixed.example": ["93.184.216.34", "10.0.0.7"], "ntfy.example.org": ["93.184.216.34"],
        "matrix.example.org": ["93.184.216.34"]}))
    with _app().app_context(), pytest.raises(targets.BadTarget, match=why):
        targets.check_target(url)


def test_a_public_https_target_is_kept_and_shown_without_its_secret(
        monkeypatch: pytest.MonkeyPatch) -> None:
    guard._install()
    monkeypatch.setattr(guard, "_real_getaddrinfo", _resolver({
        "discord.com": ["162.159.135.232"], "hooks.slack.com": ["34.226.36.122"],
        "ntfy.sh": ["159.203.148.75"], "api.telegram.org": ["149.154.167.220"],
        "matrix.example.org": ["93.184.216.34", "2606:2800:220:1:248:1893:25c8:1946"]}))
    with _app().app_context():
        cases = {discord_url(): ("discord", "discord.com", DISCORD_SECRET),
                 slack_url(): ("slack", "hooks.slack.com", SLACK_SECRET),
                 "https://ntfy.sh/ana-secret-topic-42": ("ntfy", "ntfy.sh", "ana-secret-topic"),
                 "tgram://123456789:AAHsecretBotToken42/987654": ("telegram",
                                                                 "api.telegram.org",
                                                                 "AAHsecretBotToken"),
                 "matrixs://ana:pw-secret-99@matrix.example.org/#table": ("matrix",
                                                                         "matrix.example.org",
                                                                         "pw-secret")}
        for url, (service, host, secret) in cases.items():
            target = targets.check_target(url)
            assert (target.service, target.host, target.url) == (service, host, url)
            assert secret not in target.shown and host in target.shown
            assert target.shown.endswith(url.rstrip("/").split("?")[0][-4:])


def test_loopback_needs_the_test_setting_which_allows_no_private_range(
        fake: fake_chat.FakeChat) -> None:
    with _app().app_context(), pytest.raises(targets.BadTarget, match="https only"):
        targets.check_target(ntfy_url(fake))  # http to loopback, no test setting
    with _app(NOTICE_TEST_LOOPBACK=True).app_context():
        assert targets.check_target(ntfy_url(fake)).host == "127.0.0.1"
        with pytest.raises(targets.BadTarget, match="public hosts only"):
            targets.check_target("ntfys://10.1.2.3/topic")


def test_a_host_that_resolves_elsewhere_at_send_time_is_refused_then(
        fake: fake_chat.FakeChat, monkeypatch: pytest.MonkeyPatch) -> None:
    """DNS rebinding: the name answered a public address when the channel was saved, and
    answers 127.0.0.1 (where the fake listens) when the notice is posted."""
    port = int(fake.base.rsplit(":", 1)[1])
    url = f"ntfys://rebind.example:{port}/topic"
    guard._install()
    monkeypatch.setattr(guard, "_real_getaddrinfo", _resolver({"rebind.example":
                                                                ["93.184.216.34"]}))
    with _app().app_context():
        assert targets.check_target(url).host == "rebind.example"
        monkeypatch.setattr(guard, "_real_getaddrinfo", _resolver({"rebind.example":
                                                                    ["127.0.0.1"]}))
        result = post.send(url.replace("ntfys://", "ntfy://"), "Friday", "Your turn")
    assert not result.ok and "127.0.0.1 is not a public address" in result.error
    assert fake.attempts == 0  # no connection was made to the private address


def test_the_check_covers_only_the_posting_thread_and_block(fake: fake_chat.FakeChat) -> None:
    with guard.checked_addresses(lambda address: "no"), pytest.raises(guard.UnsafeAddress):
        socket.getaddrinfo("127.0.0.1", 80)
    assert socket.getaddrinfo("127.0.0.1", 80)  # after the block: the machine's answer


def test_a_post_reaches_each_fake_and_a_failure_names_no_secret(
        fake: fake_chat.FakeChat) -> None:
    config = {"NOTICE_TEST_LOOPBACK": True,
              "NOTICE_TEST_BASE_URLS": {"discord": f"{fake.base}/api/webhooks",
                                        "slack": f"{fake.base}/services"}}
    with _app(**config).app_context():
        for url in (discord_url(), slack_url(), ntfy_url(fake)):
            assert post.send(url, "Alien Frontiers: Friday", "Your turn · round 2").ok
        fake.faults.extend(["404", "drop"])
        for _ in range(2):
            failed = post.send(discord_url(), "t", "b")
            assert not failed.ok and failed.error and DISCORD_SECRET not in failed.error
    assert [p.service for p in fake.posts] == ["discord", "slack", "ntfy"]
    assert fake.posts[0].path == f"/api/webhooks/112233445566778899/{DISCORD_SECRET}"
    assert fake.posts[1].path == f"/services/T0001/B0002/{SLACK_SECRET}"
    assert all("Your turn · round 2" in p.text for p in fake.posts)
    assert "avatar_url" not in fake.posts[0].payload  # no image fetched from elsewhere
    assert fake.posts[1].payload["attachments"][0]["footer"] == "pbem"


def test_apprise_logs_no_secret_into_the_apps_log() -> None:
    """apprise logs an unparseable URL whole: its records never reach the app's handlers
    (the root logger's), only ``post``'s capture, which blanks the secret parts."""
    seen: list[str] = []

    class Keep(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            seen.append(record.getMessage())

    keep = Keep(level=logging.DEBUG)
    logging.getLogger().addHandler(keep)
    try:
        with _app().app_context():
            with pytest.raises(targets.BadTarget):
                targets.check_target("https://example.org/hooks/very-secret-token")
            assert not post.send("https://example.org/hooks/very-secret-token", "t", "b").ok
    finally:
        logging.getLogger().removeHandler(keep)
    assert not [line for line in seen if "very-secret-token" in line]
