"""A benchmark's private PostgreSQL schema, so it never touches the tables of the database
it is pointed at."""

from __future__ import annotations

import sqlalchemy as sa


def fresh_schema_url(url: str, schema: str) -> str:
    """Drop and recreate ``schema`` on the server of ``url``; return ``url`` with its
    search_path set to it."""
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        conn.execute(sa.text(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE'))
        conn.execute(sa.text(f'CREATE SCHEMA "{schema}"'))
    engine.dispose()
    return sa.make_url(url).update_query_dict(
        {"options": f"-csearch_path={schema}"}).render_as_string(hide_password=False)
