"""The application factory: ``create_app(config=None)``.

It lives here rather than in ``pbem/__init__.py`` so that importing ``pbem.engine`` (the
pure rules library) never drags in Flask. The app puts the web's blueprints and the
scheduler's steps together; the ``pbem`` command line builds it (``pbem.cli``) and is not
imported here.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import Any

from flask import Flask, Response, current_app
from werkzeug.middleware.proxy_fix import ProxyFix

from pbem import __version__, models  # noqa: F401  -- registers every table on db.metadata for Alembic
from pbem.config import fill_instance_defaults, load_config
from pbem.extensions import csrf, db, migrate
from pbem.paths import migrations_dir, templates_dir
from pbem.scheduler.steps import register_steps
from pbem.web import ratelimit
from pbem.web.blueprints import blueprints

# Inline styles and scripts are refused: templates link static files instead.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)


def create_app(
    config: Mapping[str, Any] | None = None,
    *,
    instance_path: str | os.PathLike[str] | None = None,
) -> Flask:
    """Build a configured app: environment first, then ``config`` overrides, then defaults.

    ``instance_path`` lets tests keep the default SQLite file and dev secret key out of the
    checkout's ``instance/`` folder.
    """
    app = Flask(
        "pbem",
        template_folder=str(templates_dir()),
        instance_path=os.fspath(instance_path) if instance_path is not None else None,
    )
    app.config.update(load_config(os.environ))
    if config:
        app.config.update(config)
    fill_instance_defaults(app.config, app.instance_path)

    db.init_app(app)
    migrate.init_app(
        app, db, directory=str(migrations_dir()), render_as_batch=True, compare_type=True
    )
    csrf.init_app(app)

    for blueprint in blueprints(app.config):
        app.register_blueprint(blueprint)
    ratelimit.install(app)
    if hops := int(app.config.get("PROXY_HOPS", 0)):  # trust that many proxies' X-Forwarded-*
        app.wsgi_app = ProxyFix(  # type: ignore[method-assign]
            app.wsgi_app, x_for=hops, x_proto=hops, x_host=hops, x_port=hops)
    register_steps()  # deadlines, digest, then mail: what the first two enqueue leaves at once
    app.jinja_env.globals["pbem_version"] = __version__
    app.after_request(_security_headers)
    return app


def _security_headers(response: Response) -> Response:
    """Defaults for every response; a view that needs otherwise sets its own header first."""
    headers = response.headers
    headers.setdefault("X-Content-Type-Options", "nosniff")
    headers.setdefault("X-Frame-Options", "DENY")
    # same-origin: the site gets the page it came from (Flask-WTF needs that Referer on every
    # form over HTTPS); no other origin ever gets a URL, and seat links carry their key
    headers.setdefault("Referrer-Policy", "same-origin")
    headers.setdefault("Content-Security-Policy", CONTENT_SECURITY_POLICY)
    if current_app.config["PREFERRED_URL_SCHEME"] == "https":
        # Only once the site is served over HTTPS; dev on http://127.0.0.1 must keep working.
        headers.setdefault("Strict-Transport-Security", "max-age=31536000")
    return response
