"""Server fixtures: every database test runs on SQLite and, when configured, on PostgreSQL.

``database_kind`` is parametrised ``sqlite`` / ``postgresql``; the PostgreSQL half needs
``PBEM_TEST_DATABASE_URL`` (``.ci/run`` always sets it). Schemas are built with the real
migrations once per session per database; each test starts with every table emptied.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, time, timedelta
from pathlib import Path
from typing import Any

import flask_migrate
import jinja2
import jinja2.bccache
import pytest
import sqlalchemy as sa
from flask import Flask
from flask.testing import FlaskClient
from hypothesis import HealthCheck, settings
from werkzeug.routing import Rule

from pbem.app import create_app
from pbem.cli import cli as pbem_cli
from pbem.extensions import db

PG_URL_ENV = "PBEM_TEST_DATABASE_URL"
# One pair of schemas per pytest process (and per xdist worker): runs side by side on the one
# ``test`` database never empty each other's tables.
_RUN = f"{os.environ.get('PYTEST_XDIST_WORKER', 'main')}_{os.getpid()}"
PG_SESSION_SCHEMA = f"pbem_test_{_RUN}"
PG_FRESH_SCHEMA = f"pbem_test_fresh_{_RUN}"

DATABASE_PARAMS = [
    pytest.param("sqlite", id="sqlite"),
    pytest.param(
        "postgresql",
        id="postgresql",
        marks=pytest.mark.skipif(
            not os.environ.get(PG_URL_ENV),
            reason=f"{PG_URL_ENV} is not set: the PostgreSQL half of this test did not run",
        ),
    ),
]

MakeApp = Callable[..., Flask]

# For the large random samples of rules that live above the database (which links confirm which
# move, which reply example applies): the sample runs once, on SQLite, the README's default,
# while the same test's smaller sample runs on both databases. Running the large one on both
# cost the suite almost two minutes and tested PostgreSQL nothing the small sample does not.
ON_SQLITE_ONLY = pytest.mark.parametrize("database_kind", ["sqlite"], scope="session")

CLOCK_AT_ENV = "PBEM_TEST_CLOCK_AT"  # set by tests/at_every_hour.py

# Hypothesis's own speed checks (a deadline per example, "data generation is too slow") time
# the machine, not the code: on a loaded one they fail property tests that are right. A test's
# own ``@settings`` still chooses its examples; only these two are off for every test.
settings.register_profile("pbem", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("pbem")


def pytest_sessionstart(session: pytest.Session) -> None:
    """Under ``tests/at_every_hour.py`` the clock must read the hour it asked for: a faketime
    preload that did not take would pass at the real hour and prove nothing."""
    wanted = os.environ.get(CLOCK_AT_ENV)
    if not wanted:
        return
    hours, minutes = (int(part) for part in wanted.split(":"))
    now = datetime.now(UTC)
    asked = now.replace(hour=hours, minute=minutes, second=0, microsecond=0)
    if abs((now - asked).total_seconds()) > 120:
        raise pytest.UsageError(f"{CLOCK_AT_ENV}={wanted} but the clock reads {now:%H:%M} UTC: "
                                "the faketime preload did not take")


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The files that hold ``slow`` tests first. pytest-xdist hands each worker whole files
    (``--dist loadfile``) in this order: a long file handed out last kept one worker busy
    while the other sat idle. Within a file, and otherwise, the order stays as collected."""
    slow_files = {item.path for item in items if item.get_closest_marker("slow")}
    items.sort(key=lambda item: item.path not in slow_files)


def days_ago_at_noon(days: int) -> datetime:
    """Noon UTC ``days`` calendar days before today: a past moment whose time of day does not
    depend on when the suite runs.

    A game begun then has reminders at fixed local times (the default quiet hours, 22:00 to
    08:00 UTC, push the second one to 08:00, still before the deadline), whatever the hour of
    the run; ``datetime.now() - timedelta(days=...)`` would move them with the wall clock, and
    a run between 22:00 and 08:00 would lose the second reminder to the quiet hours (issue 22).
    Noon ``days`` dates back is between ``days - 0.5`` and ``days + 0.5`` days ago.
    """
    today = datetime.now(UTC).date()
    return datetime.combine(today - timedelta(days=days), time(12, 0), tzinfo=UTC)


def _run_on_test_database(*statements: str) -> None:
    engine = sa.create_engine(sa.make_url(os.environ[PG_URL_ENV]))
    try:
        with engine.begin() as conn:
            for statement in statements:
                conn.execute(sa.text(statement))
    finally:
        engine.dispose()


def _drop_postgres_schema(schema: str) -> None:
    _run_on_test_database(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')


def postgres_schema_url(schema: str) -> str:
    """Recreate ``schema`` empty in the test database; return a URL whose search_path is it.

    A dedicated schema keeps the ``test`` database's ``public`` schema untouched.
    """
    _run_on_test_database(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE', f'CREATE SCHEMA "{schema}"')
    url = sa.make_url(os.environ[PG_URL_ENV]).update_query_dict(
        {"options": f"-csearch_path={schema}"}
    )
    return url.render_as_string(hide_password=False)


def _empty_database_url(kind: str, directory: Path, schema: str) -> str:
    if kind == "sqlite":
        return f"sqlite:///{directory / 'pbem-test.sqlite3'}"
    return postgres_schema_url(schema)


class _TemplateCodeOfTheRun(jinja2.BytecodeCache):
    """The compiled code of each template, kept for every app of this test process.

    Each test builds its own app, and each app's Jinja environment compiled every template it
    rendered anew: a seventh of the CPU time of the quiet-hours tests. Jinja checks each
    template's source checksum before using its code, so an edited template is compiled again.
    """

    def __init__(self) -> None:
        self._code: dict[str, bytes] = {}

    def load_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        if bucket.key in self._code:
            bucket.bytecode_from_string(self._code[bucket.key])

    def dump_bytecode(self, bucket: jinja2.bccache.Bucket) -> None:
        self._code[bucket.key] = bucket.bytecode_to_string()


_TEMPLATE_CODE = _TemplateCodeOfTheRun()

# The same for the URL builders werkzeug writes as Python source and compiles for each rule of
# each app: another seventh of the quiet-hours tests. A builder is a function of the rule's
# parsed path, its defaults and whether it appends unknown arguments; it reaches the rule's
# converters through the rule it is bound to, so one function serves every app's copy of a rule.
_werkzeug_compile_builder = Rule._compile_builder
_BUILDERS: dict[tuple[object, ...], Callable[..., tuple[str, str]]] = {}


def _builder_of_the_run(rule: Rule, append_unknown: bool = True) -> Callable[..., tuple[str, str]]:
    key = (rule.rule, tuple(rule._trace), repr(sorted((rule.defaults or {}).items())),
           append_unknown)
    if key not in _BUILDERS:
        _BUILDERS[key] = _werkzeug_compile_builder(rule, append_unknown)
    return _BUILDERS[key]


Rule._compile_builder = _builder_of_the_run  # type: ignore[method-assign]


def build_app(db_url: str, instance_path: Path, **overrides: Any) -> Flask:
    """An app on ``db_url`` whose instance folder is a temp dir, never the checkout's."""
    config = {"TESTING": True, "SECRET_KEY": "test-secret", "SQLALCHEMY_DATABASE_URI": db_url,
              # Whole games are played through the pages in a few seconds; the limits
              # themselves are tested in tests/web/test_rate_limits.py.
              "TOKEN_RATE_LIMIT": 0}
    config.update(overrides)
    app = create_app(config, instance_path=instance_path)
    app.jinja_env.bytecode_cache = _TEMPLATE_CODE
    # The ``pbem`` group as ``flask --app pbem.app`` has it (its ``flask.commands`` entry
    # point), so ``app.test_cli_runner()`` reaches it: the app never imports its command line.
    app.cli.add_command(pbem_cli)
    return app


def migrate_to_head(db_url: str, instance_path: Path, **overrides: Any) -> None:
    """Bring the database at ``db_url`` to the head migration, and close the app's
    connections so the database is free for other processes."""
    app = build_app(db_url, instance_path, **overrides)
    with app.app_context():
        flask_migrate.upgrade()
        db.session.remove()
        db.engine.dispose()


@pytest.fixture(scope="session", params=DATABASE_PARAMS)
def database_kind(request: pytest.FixtureRequest) -> str:
    """``sqlite`` or ``postgresql``: which database this run of the test uses."""
    return str(request.param)


@pytest.fixture(scope="session")
def db_url(database_kind: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """URL of a database migrated to head, shared by the session's tests on that database."""
    directory = tmp_path_factory.mktemp(f"db-{database_kind}")
    url = _empty_database_url(database_kind, directory, PG_SESSION_SCHEMA)
    migrate_to_head(url, directory / "instance")
    yield url
    if database_kind == "postgresql":
        _drop_postgres_schema(PG_SESSION_SCHEMA)


@pytest.fixture
def fresh_db_url(database_kind: str, tmp_path: Path) -> Iterator[str]:
    """URL of an empty database with no schema at all, for migration tests."""
    yield _empty_database_url(database_kind, tmp_path, PG_FRESH_SCHEMA)
    if database_kind == "postgresql":
        _drop_postgres_schema(PG_FRESH_SCHEMA)


# The tables of each database a test empties, children first. A migrated schema never changes
# under the tests that empty it (the migration tests work on ``fresh_db_url``), so it is
# reflected once per process: reflecting it before every test cost 25-35 ms a test.
_TABLES_TO_EMPTY: dict[str, list[sa.Table]] = {}


def _delete_all_rows(app: Flask) -> None:
    with app.app_context():
        url = db.engine.url.render_as_string(hide_password=False)
        if url not in _TABLES_TO_EMPTY:
            reflected = sa.MetaData()
            reflected.reflect(bind=db.engine)
            _TABLES_TO_EMPTY[url] = [table for table in reversed(reflected.sorted_tables)
                                     if table.name != "alembic_version"]
        with db.engine.begin() as conn:
            for table in _TABLES_TO_EMPTY[url]:
                conn.execute(table.delete())


@pytest.fixture
def make_app(db_url: str, tmp_path: Path) -> Iterator[MakeApp]:
    """Factory for apps on the session database, e.g. ``make_app(WTF_CSRF_ENABLED=False)``."""
    apps: list[Flask] = []

    def make(**overrides: Any) -> Flask:
        app = build_app(db_url, tmp_path / "instance", **overrides)
        apps.append(app)
        return app

    yield make
    for app in apps:
        with app.app_context():
            db.session.remove()
            db.engine.dispose()


@pytest.fixture
def app(make_app: MakeApp) -> Flask:
    """The app on the session database, every table emptied first."""
    application = make_app()
    _delete_all_rows(application)
    return application


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    """A test client of ``app``."""
    return app.test_client()
