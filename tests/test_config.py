"""Configuration from the environment, and the defaults of a bare checkout."""

from __future__ import annotations

import importlib.util
import stat
from pathlib import Path

import pytest

from pbem.app import create_app
from pbem.config import (
    ConfigError,
    fill_instance_defaults,
    load_config,
    normalise_database_url,
)

ENV_NAMES = (
    "DATABASE_URL",
    "SECRET_KEY",
    "SECRET_KEY_FALLBACKS",
    "SERVER_NAME",
    "TRUSTED_HOSTS",
    "PREFERRED_URL_SCHEME",
    "MAIL_BACKEND",
    "SMTP_HOST",
    "SMTP_PORT",
    "SMTP_USERNAME",
    "SMTP_PASSWORD",
    "SMTP_SECURITY",
    "MAIL_FROM",
    "MAIL_MESSAGE_ID_DOMAIN",
    "TICK_TOKEN",
    "MAX_CONTENT_LENGTH",
    "PROXY_HOPS",
    "RATELIMIT_STORAGE_URI",
    *(f"{p}_RATE_{w}" for p in ("API", "TOKEN", "NEW_GAME", "MAGIC") for w in ("LIMIT", "WINDOW")),
)


@pytest.mark.parametrize(
    ("given", "expected"),
    [
        ("postgres://u:p@db:5432/pbem", "postgresql+psycopg://u:p@db:5432/pbem"),
        ("postgresql://u:p@db/pbem", "postgresql+psycopg://u:p@db/pbem"),
        ("postgresql+psycopg://u@db/pbem", "postgresql+psycopg://u@db/pbem"),
        ("sqlite:////var/pbem.sqlite3", "sqlite:////var/pbem.sqlite3"),
    ],
)
def test_database_url_uses_the_psycopg3_driver(given: str, expected: str) -> None:
    assert normalise_database_url(given) == expected
    assert load_config({"DATABASE_URL": given})["SQLALCHEMY_DATABASE_URI"] == expected


def test_settings_are_read_from_the_environment() -> None:
    config = load_config(
        {
            "SECRET_KEY": "new",
            "SECRET_KEY_FALLBACKS": "old, older,",
            "SERVER_NAME": "pbem.example.org",
            "TRUSTED_HOSTS": "pbem.example.org, www.pbem.example.org",
            "PREFERRED_URL_SCHEME": "https",
            "MAIL_BACKEND": "smtp",
            "SMTP_HOST": "smtp.example.org",
            "SMTP_SECURITY": "ssl",
            "SMTP_USERNAME": "pbem",
            "SMTP_PASSWORD": "pw",
            "TICK_TOKEN": "tick",
        }
    )
    assert config["SECRET_KEY"] == "new"
    assert config["SECRET_KEY_FALLBACKS"] == ["old", "older"]
    assert config["TRUSTED_HOSTS"] == ["pbem.example.org", "www.pbem.example.org"]
    assert config["SESSION_COOKIE_SECURE"] is True
    assert config["SMTP_PORT"] == 465
    assert config["MAIL_FROM"] == "pbem@pbem.example.org"
    assert config["MAIL_MESSAGE_ID_DOMAIN"] == "pbem.example.org"
    assert config["TICK_TOKEN"] == "tick"


def test_request_size_proxy_hops_and_rate_limits_are_read_from_the_environment() -> None:
    config = load_config({"MAX_CONTENT_LENGTH": "65536", "PROXY_HOPS": "2",
                          "RATELIMIT_STORAGE_URI": "redis://cache:6379", "API_RATE_LIMIT": "0",
                          "API_RATE_WINDOW": "30", "NEW_GAME_RATE_LIMIT": "5",
                          "MAGIC_RATE_WINDOW": "7200"})
    assert (config["MAX_CONTENT_LENGTH"], config["PROXY_HOPS"]) == (65536, 2)
    assert config["RATELIMIT_STORAGE_URI"] == "redis://cache:6379"
    assert (config["API_RATE_LIMIT"], config["API_RATE_WINDOW"]) == (0, 30)
    assert (config["NEW_GAME_RATE_LIMIT"], config["MAGIC_RATE_WINDOW"]) == (5, 7200)
    defaults = load_config({})
    assert (defaults["MAX_CONTENT_LENGTH"], defaults["PROXY_HOPS"]) == (256 * 1024, 0)
    assert defaults["RATELIMIT_STORAGE_URI"] == "memory://"
    assert "TOKEN_RATE_LIMIT" not in defaults  # pbem.web.ratelimit holds the defaults


def test_empty_environment_means_dev_mail_and_no_server_name() -> None:
    config = load_config({})
    assert config["MAIL_BACKEND"] == "dev"
    assert config["SMTP_SECURITY"] == "starttls"
    assert config["SMTP_PORT"] == 587
    assert "SERVER_NAME" not in config
    assert "SQLALCHEMY_DATABASE_URI" not in config
    assert "SECRET_KEY" not in config
    assert config["TICK_TOKEN"] is None


@pytest.mark.parametrize(
    "env",
    [{"MAIL_BACKEND": "carrier-pigeon"}, {"SMTP_SECURITY": "tls"}, {"SMTP_PORT": "smtp"},
     {"PROXY_HOPS": "-1"}, {"MAX_CONTENT_LENGTH": "lots"}, {"TOKEN_RATE_LIMIT": "ten"},
     {"MAGIC_RATE_WINDOW": "0"}],
)
def test_unusable_settings_are_refused_by_name(env: dict[str, str]) -> None:
    (name,) = env
    with pytest.raises(ConfigError, match=name):
        load_config(env)


def test_bare_checkout_uses_sqlite_in_the_instance_folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ENV_NAMES:
        monkeypatch.delenv(name, raising=False)
    instance = tmp_path / "instance"
    app = create_app(instance_path=instance)
    assert app.config["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{instance / 'pbem.sqlite3'}"
    assert app.config["MAIL_BACKEND"] == "dev"
    assert app.config["SERVER_NAME"] is None
    key_file = instance / "secret_key"
    assert app.config["SECRET_KEY"] == key_file.read_text().strip()
    assert len(app.config["SECRET_KEY"]) >= 64
    assert stat.S_IMODE(key_file.stat().st_mode) == 0o600
    assert create_app(instance_path=instance).config["SECRET_KEY"] == app.config["SECRET_KEY"]


def test_each_instance_gets_its_own_secret_key(tmp_path: Path) -> None:
    first: dict[str, object] = {"SQLALCHEMY_DATABASE_URI": "sqlite://"}
    second: dict[str, object] = {"SQLALCHEMY_DATABASE_URI": "sqlite://"}
    fill_instance_defaults(first, tmp_path / "a")
    fill_instance_defaults(second, tmp_path / "b")
    assert first["SECRET_KEY"] != second["SECRET_KEY"]


def test_overrides_win_over_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("MAIL_BACKEND", "smtp")
    monkeypatch.setenv("DATABASE_URL", "postgres://nowhere/db")
    app = create_app(
        {"MAIL_BACKEND": "console", "SQLALCHEMY_DATABASE_URI": "sqlite://"},
        instance_path=tmp_path,
    )
    assert app.config["MAIL_BACKEND"] == "console"
    assert app.config["SQLALCHEMY_DATABASE_URI"] == "sqlite://"


def test_rate_limits_and_their_windows_come_from_the_environment() -> None:
    config = load_config({"API_RATE_LIMIT": "0", "TOKEN_RATE_WINDOW": "30",
                          "MAGIC_RATE_LIMIT": "5"})
    assert (config["API_RATE_LIMIT"], config["TOKEN_RATE_WINDOW"],
            config["MAGIC_RATE_LIMIT"]) == (0, 30, 5)
    assert "NEW_GAME_RATE_LIMIT" not in load_config({})  # unset: pbem/web/ratelimit.py's default


@pytest.mark.parametrize(("name", "raw"), [("API_RATE_LIMIT", "many"),
                                           ("SMTP_TIMEOUT", "0"), ("SMTP_TIMEOUT", "slow")])
def test_a_bad_number_is_refused_by_name(name: str, raw: str) -> None:
    with pytest.raises(ConfigError, match=name):
        load_config({name: raw})


def test_the_reply_answer_cap_defaults_to_twenty_and_takes_a_whole_number() -> None:
    assert load_config({})["REPLY_ANSWERS_PER_HOUR"] == 20
    assert load_config({"REPLY_ANSWERS_PER_HOUR": "5"})["REPLY_ANSWERS_PER_HOUR"] == 5
    for raw in ("0", "many"):
        with pytest.raises(ConfigError, match="REPLY_ANSWERS_PER_HOUR"):
            load_config({"REPLY_ANSWERS_PER_HOUR": raw})


def test_the_inbound_bounds_default_to_a_megabyte_and_ten_seconds() -> None:
    config = load_config({})
    assert (config["INBOUND_MAX_BYTES"], config["INBOUND_POLL_SECONDS"],
            config["INBOUND_IMAP_QUARANTINE"]) == (1024 * 1024, 10.0, "Quarantine")
    config = load_config({"INBOUND_MAX_BYTES": "200000", "INBOUND_POLL_SECONDS": "2.5",
                          "INBOUND_IMAP_QUARANTINE": "Junk/pbem"})
    assert (config["INBOUND_MAX_BYTES"], config["INBOUND_POLL_SECONDS"],
            config["INBOUND_IMAP_QUARANTINE"]) == (200000, 2.5, "Junk/pbem")
    for name, raw in (("INBOUND_MAX_BYTES", "100"), ("INBOUND_POLL_SECONDS", "0")):
        with pytest.raises(ConfigError, match=name):
            load_config({name: raw})


def test_a_webhook_secret_shorter_than_32_characters_is_refused_at_start() -> None:
    with pytest.raises(ConfigError, match="INBOUND_WEBHOOK_SECRET is 6 characters long"):
        load_config({"INBOUND_WEBHOOK_SECRET": "secret"})
    secret = "x" * 32
    assert load_config({"INBOUND_WEBHOOK_SECRET": secret})["INBOUND_WEBHOOK_SECRET"] == secret
    assert load_config({})["INBOUND_WEBHOOK_SECRET"] is None


def test_a_redis_store_for_the_rate_limits_times_out_in_two_seconds() -> None:
    config = load_config({"RATELIMIT_STORAGE_URI": "rediss://:pw@cache.example.org:6380/0"})
    assert config["RATELIMIT_STORAGE_URI"] == "rediss://:pw@cache.example.org:6380/0"
    assert config["RATELIMIT_STORAGE_OPTIONS"] == {"socket_connect_timeout": 2.0,
                                                   "socket_timeout": 2.0}
    assert "RATELIMIT_STORAGE_OPTIONS" not in load_config({})


def test_a_redis_store_without_its_client_is_refused_without_showing_the_password(
        monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name == "redis" else real(name, *a))
    with pytest.raises(ConfigError, match=r"RATELIMIT_STORAGE_URI=redis://….*\.\[redis\]") as exc:
        load_config({"RATELIMIT_STORAGE_URI": "redis://:s3cret@cache:6379"})
    assert "s3cret" not in str(exc.value)
