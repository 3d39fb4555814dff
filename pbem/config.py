"""Configuration read from the environment (twelve-factor style).

``load_config(environ)`` is a pure function of the environment so it can be tested without an
app. Values that depend on the Flask instance folder (the default SQLite file and the dev
secret key) are filled in afterwards by ``fill_instance_defaults`` once overrides are known,
so a test that passes its own database never touches the instance folder for it.
"""

from __future__ import annotations

import importlib.util
import os
import secrets
from collections.abc import Mapping
from pathlib import Path
from typing import Any

# The HTTP-API backends (pbem/mail/outbound/api_backends.py) serve hosts that block outbound SMTP.
API_MAIL_BACKENDS = ("resend", "brevo", "postmark", "mailgun")
MAIL_BACKENDS = ("dev", "console", "smtp", *API_MAIL_BACKENDS)
SMTP_SECURITIES = ("starttls", "ssl", "none")
_DEFAULT_SMTP_PORTS = {"starttls": 587, "ssl": 465, "none": 25}

# Rate-limit buckets (pbem.web.ratelimit): each reads <NAME>_RATE_LIMIT and <NAME>_RATE_WINDOW.
RATE_LIMIT_PREFIXES = ("API", "TOKEN", "NEW_GAME", "MAGIC", "INBOUND")
# The largest request body read (bytes): a create form or an API move is a few KB.
DEFAULT_MAX_CONTENT_LENGTH = 256 * 1024

SQLITE_FILENAME = "pbem.sqlite3"
SECRET_KEY_FILENAME = "secret_key"


class ConfigError(ValueError):
    """A setting in the environment is present but unusable; the message names it."""


def normalise_database_url(url: str) -> str:
    """Make Heroku-style ``postgres://`` URLs use SQLAlchemy's psycopg 3 driver.

    PaaS providers hand out ``postgres://`` (which SQLAlchemy 2 rejects) or plain
    ``postgresql://`` (which would pick psycopg2, not installed).
    """
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def _split_list(value: str | None) -> list[str]:
    if not value:
        return []
    return [item.strip() for item in value.split(",") if item.strip()]


def _choice(environ: Mapping[str, str], name: str, choices: tuple[str, ...], default: str) -> str:
    value = environ.get(name, "").strip().lower() or default
    if value not in choices:
        raise ConfigError(f"{name}={value!r}: expected one of {', '.join(choices)}")
    return value


def _port(environ: Mapping[str, str], name: str, default: int) -> int:
    raw = environ.get(name, "").strip()
    if not raw:
        return default
    try:
        port = int(raw)
    except ValueError:
        raise ConfigError(f"{name}={raw!r}: expected a port number") from None
    if not 0 < port < 65536:
        raise ConfigError(f"{name}={raw!r}: expected a port number between 1 and 65535")
    return port


def _seconds(environ: Mapping[str, str], name: str, default: float) -> float:
    raw = environ.get(name, "").strip()
    if not raw:
        return default
    try:
        value = float(raw)
    except ValueError:
        raise ConfigError(f"{name}={raw!r}: expected a number of seconds") from None
    if not value > 0:
        raise ConfigError(f"{name}={raw!r}: expected a positive number of seconds")
    return value


def _mail_api(environ: Mapping[str, str], backend: str) -> dict[str, Any]:
    """Settings of the HTTP-API mail backends; the key is required when one is chosen."""
    key = environ.get("MAIL_API_KEY", "").strip() or None
    if backend in API_MAIL_BACKENDS and not key:
        raise ConfigError(f"MAIL_BACKEND={backend}: set MAIL_API_KEY to the provider's API key")
    if backend == "mailgun" and not environ.get("MAILGUN_DOMAIN", "").strip():
        raise ConfigError("MAIL_BACKEND=mailgun: set MAILGUN_DOMAIN to your sending domain")
    settings: dict[str, Any] = {
        "MAIL_API_KEY": key,
        "MAIL_API_TIMEOUT": _seconds(environ, "MAIL_API_TIMEOUT", 10.0),
        "POSTMARK_MESSAGE_STREAM": environ.get("POSTMARK_MESSAGE_STREAM", "").strip()
        or "outbound",
        "MAILGUN_DOMAIN": environ.get("MAILGUN_DOMAIN", "").strip() or None,
    }
    for provider in API_MAIL_BACKENDS:  # e.g. RESEND_API_URL: tests point it at a fake
        name = f"{provider.upper()}_API_URL"
        settings[name] = environ.get(name, "").strip() or None
    return settings


def _count(environ: Mapping[str, str], name: str, *, minimum: int = 0) -> int | None:
    """A whole number of at least ``minimum`` when ``name`` is set, else None."""
    raw = environ.get(name, "").strip()
    if not raw:
        return None
    try:
        value = int(raw)
    except ValueError:
        raise ConfigError(f"{name}={raw!r}: expected a whole number") from None
    if value < minimum:
        raise ConfigError(f"{name}={raw!r}: expected a whole number of at least {minimum}")
    return value


# A Redis that does not answer within this many seconds counts as down: the limits fall back
# to each process's memory until it answers again (pbem.web.ratelimit).
RATE_LIMIT_STORAGE_TIMEOUT = 2.0


def _rate_limit_storage(environ: Mapping[str, str]) -> dict[str, Any]:
    """Where the rate limits count: each process's memory, or a store every process shares
    (``redis://…``, ``rediss://…``: docs/deploy.md, "Rate limits across processes")."""
    uri = environ.get("RATELIMIT_STORAGE_URI", "").strip() or "memory://"
    scheme = uri.partition("://")[0].lower()  # never the rest: it may hold a password
    if not scheme.startswith("redis"):
        return {"RATELIMIT_STORAGE_URI": uri}
    if importlib.util.find_spec("redis") is None:
        raise ConfigError(f"RATELIMIT_STORAGE_URI={scheme}://…: the Redis client is not "
                          "installed; install pbem with it: pip install '.[redis]'")
    return {"RATELIMIT_STORAGE_URI": uri, "RATELIMIT_STORAGE_OPTIONS": {
        "socket_connect_timeout": RATE_LIMIT_STORAGE_TIMEOUT,
        "socket_timeout": RATE_LIMIT_STORAGE_TIMEOUT}}


def _web_guards(environ: Mapping[str, str]) -> dict[str, Any]:
    """Request size, proxy hops and the rate limits (only those set: pbem.web.ratelimit has
    the defaults)."""
    config: dict[str, Any] = {
        "MAX_CONTENT_LENGTH": _count(environ, "MAX_CONTENT_LENGTH", minimum=1024)
        or DEFAULT_MAX_CONTENT_LENGTH,
        "PROXY_HOPS": _count(environ, "PROXY_HOPS") or 0,
        **_rate_limit_storage(environ),
    }
    for prefix in RATE_LIMIT_PREFIXES:
        limit = _count(environ, f"{prefix}_RATE_LIMIT")
        if limit is not None:
            config[f"{prefix}_RATE_LIMIT"] = limit
        window = _count(environ, f"{prefix}_RATE_WINDOW", minimum=1)
        if window is not None:
            config[f"{prefix}_RATE_WINDOW"] = window
    return config


# Answers to one seat's replies in any hour: a loop with an auto-responder that marks nothing
# as automatic ends there, and a player never sends this many replies in an hour.
DEFAULT_REPLY_ANSWERS_PER_HOUR = 20
DEFAULT_INBOUND_MAX_BYTES = 1024 * 1024  # a reply is a few lines; a mail past this is not read
DEFAULT_INBOUND_POLL_SECONDS = 10.0  # of each tick, for reading replies over IMAP
WEBHOOK_SECRET_MIN = 32  # characters: the secret in the webhook's URL is its only proof


def _webhook_secret(environ: Mapping[str, str]) -> str | None:
    secret = environ.get("INBOUND_WEBHOOK_SECRET", "").strip() or None
    if secret is not None and len(secret) < WEBHOOK_SECRET_MIN:
        raise ConfigError(
            f"INBOUND_WEBHOOK_SECRET is {len(secret)} characters long: use at least "
            f"{WEBHOOK_SECRET_MIN} random ones (python3 -c 'import secrets; "
            "print(secrets.token_urlsafe(32))'), since it is all that proves a post comes "
            "from your mail provider")
    return secret


def _inbound(environ: Mapping[str, str]) -> dict[str, Any]:
    """Play by reply (docs/mail.md): the reply address, the IMAP mailbox polled by
    the tick and the secret of the provider webhook's URL; each path is off while unset."""
    address = environ.get("INBOUND_ADDRESS", "").strip() or None
    if address and (address.count("@") != 1 or "+" in address):
        raise ConfigError(f"INBOUND_ADDRESS={address!r}: expected one plain address such as "
                          "play@example.org (pbem adds +<token> to it)")
    ssl = environ.get("INBOUND_IMAP_SSL", "").strip().lower() not in ("0", "false", "no", "off")
    return {
        "INBOUND_ADDRESS": address,
        "INBOUND_IMAP_HOST": environ.get("INBOUND_IMAP_HOST", "").strip() or None,
        "INBOUND_IMAP_PORT": _port(environ, "INBOUND_IMAP_PORT", 993 if ssl else 143),
        "INBOUND_IMAP_USER": environ.get("INBOUND_IMAP_USER", "").strip() or None,
        "INBOUND_IMAP_PASSWORD": environ.get("INBOUND_IMAP_PASSWORD") or None,
        "INBOUND_IMAP_FOLDER": environ.get("INBOUND_IMAP_FOLDER", "").strip() or "INBOX",
        "INBOUND_IMAP_SSL": ssl,
        "INBOUND_IMAP_QUARANTINE": environ.get("INBOUND_IMAP_QUARANTINE", "").strip()
        or "Quarantine",
        "INBOUND_MAX_BYTES": _count(environ, "INBOUND_MAX_BYTES", minimum=1024)
        or DEFAULT_INBOUND_MAX_BYTES,
        "INBOUND_POLL_SECONDS": _seconds(environ, "INBOUND_POLL_SECONDS",
                                         DEFAULT_INBOUND_POLL_SECONDS),
        "INBOUND_WEBHOOK_SECRET": _webhook_secret(environ),
        "REPLY_ANSWERS_PER_HOUR": _count(environ, "REPLY_ANSWERS_PER_HOUR", minimum=1)
        or DEFAULT_REPLY_ANSWERS_PER_HOUR,
    }


POOLERS = ("none", "session", "transaction")


def _pooler(environ: Mapping[str, str], database_url: str | None) -> dict[str, Any]:
    """``DATABASE_POOLER``: what stands between the app and PostgreSQL. ``transaction`` (a
    PgBouncer in transaction mode) hands each transaction any server connection, so psycopg
    must not prepare statements (``prepare_threshold=None``); the scheduler holds no session
    lock, only transaction locks (``pbem.scheduler.lock``), so it needs nothing more."""
    pooler = _choice(environ, "DATABASE_POOLER", POOLERS, "none")
    if pooler != "transaction":
        return {"DATABASE_POOLER": pooler}
    if not (database_url or "").startswith("postgresql"):
        raise ConfigError("DATABASE_POOLER=transaction: expected a PostgreSQL DATABASE_URL "
                          "(the pooler is PgBouncer's)")
    return {"DATABASE_POOLER": pooler,
            "SQLALCHEMY_ENGINE_OPTIONS": {"pool_pre_ping": True,
                                          "connect_args": {"prepare_threshold": None}}}


def load_config(environ: Mapping[str, str]) -> dict[str, Any]:
    """Return Flask config values for every setting present in ``environ``."""
    config: dict[str, Any] = {
        "SQLALCHEMY_ENGINE_OPTIONS": {"pool_pre_ping": True},
        "SESSION_COOKIE_SAMESITE": "Lax",
    }
    if database_url := environ.get("DATABASE_URL", "").strip():
        config["SQLALCHEMY_DATABASE_URI"] = normalise_database_url(database_url)
    config.update(_pooler(environ, config.get("SQLALCHEMY_DATABASE_URI")))
    if secret_key := environ.get("SECRET_KEY", "").strip():
        config["SECRET_KEY"] = secret_key
    config["SECRET_KEY_FALLBACKS"] = _split_list(environ.get("SECRET_KEY_FALLBACKS"))

    server_name = environ.get("SERVER_NAME", "").strip() or None
    if server_name:
        config["SERVER_NAME"] = server_name
    if trusted_hosts := _split_list(environ.get("TRUSTED_HOSTS")):
        config["TRUSTED_HOSTS"] = trusted_hosts
    scheme = _choice(environ, "PREFERRED_URL_SCHEME", ("http", "https"), "http")
    config["PREFERRED_URL_SCHEME"] = scheme
    config["SESSION_COOKIE_SECURE"] = scheme == "https"

    security = _choice(environ, "SMTP_SECURITY", SMTP_SECURITIES, "starttls")
    host_for_mail = (server_name or "localhost").split(":")[0]
    backend = _choice(environ, "MAIL_BACKEND", MAIL_BACKENDS, "dev")
    config.update(_mail_api(environ, backend))
    config.update(
        MAIL_BACKEND=backend,
        SMTP_HOST=environ.get("SMTP_HOST", "").strip() or "localhost",
        SMTP_PORT=_port(environ, "SMTP_PORT", _DEFAULT_SMTP_PORTS[security]),
        SMTP_USERNAME=environ.get("SMTP_USERNAME") or None,
        SMTP_PASSWORD=environ.get("SMTP_PASSWORD") or None,
        SMTP_SECURITY=security,
        SMTP_TIMEOUT=_seconds(environ, "SMTP_TIMEOUT", 30.0),
        MAIL_FROM=environ.get("MAIL_FROM", "").strip() or f"pbem@{host_for_mail}",
        MAIL_MESSAGE_ID_DOMAIN=environ.get("MAIL_MESSAGE_ID_DOMAIN", "").strip() or host_for_mail,
        TICK_TOKEN=environ.get("TICK_TOKEN") or None,
        # Who runs the scheduler's ticks: every web process (``web``, no worker process
        # needed), a ``pbem clock`` process (``clock``), or only ``POST /tasks/tick``
        # (``off``). A lock lets one tick run at a time whichever drives it.
        SCHEDULER_MODE=_choice(environ, "SCHEDULER_MODE", ("web", "clock", "off"), "web"),
        SCHEDULER_TICK_SECONDS=_seconds(environ, "SCHEDULER_TICK_SECONDS", 30.0),
        # sent mail bodies are pruned after this many days (pbem/mail/outbound/retention.py)
        MAIL_RETENTION_DAYS=_count(environ, "MAIL_RETENTION_DAYS", minimum=1) or 30,
    )
    if environ.get("MAIL_LEASE_SECONDS", "").strip():
        config["MAIL_LEASE_SECONDS"] = _seconds(environ, "MAIL_LEASE_SECONDS", 300.0)
    config.update(_web_guards(environ))
    config.update(_inbound(environ))
    config.update(_table_talk(environ))
    return config


# Table talk (pbem.services.table_talk): messages one seat may post in a window of seconds.
DEFAULT_TABLE_TALK_RATE_LIMIT = 10
DEFAULT_TABLE_TALK_RATE_WINDOW = 600


def _table_talk(environ: Mapping[str, str]) -> dict[str, Any]:
    return {
        "TABLE_TALK_RATE_LIMIT": _count(environ, "TABLE_TALK_RATE_LIMIT", minimum=1)
        or DEFAULT_TABLE_TALK_RATE_LIMIT,
        "TABLE_TALK_RATE_WINDOW": _count(environ, "TABLE_TALK_RATE_WINDOW", minimum=1)
        or DEFAULT_TABLE_TALK_RATE_WINDOW,
    }


def fill_instance_defaults(config: dict[str, Any], instance_path: str | os.PathLike[str]) -> None:
    """Give a bare checkout a working SQLite database and a stable secret key.

    The key is generated once and kept in the instance folder (never hard-coded), so sessions
    and signed links survive a restart of ``pbem serve``.
    """
    instance = Path(instance_path)
    if not config.get("SQLALCHEMY_DATABASE_URI"):
        instance.mkdir(parents=True, exist_ok=True)
        config["SQLALCHEMY_DATABASE_URI"] = f"sqlite:///{instance / SQLITE_FILENAME}"
    if not config.get("SECRET_KEY"):
        config["SECRET_KEY"] = _persistent_secret_key(instance / SECRET_KEY_FILENAME)


def _persistent_secret_key(path: Path) -> str:
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        key = path.read_text(encoding="ascii").strip()
        if not key:
            raise ConfigError(f"{path} is empty: delete it to generate a new key") from None
        return key
    key = secrets.token_hex(32)
    with os.fdopen(fd, "w", encoding="ascii") as handle:
        handle.write(key + "\n")
    return key
