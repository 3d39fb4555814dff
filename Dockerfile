# pbem for hosts that run containers (Koyeb, Fly, Cloud Run, a VM): docs/deploy.md.
# The image serves the web process; the database comes from DATABASE_URL (PostgreSQL).

# The rules engine compiled with mypyc (docs/compiled-engine.md), in a stage of its own: the
# image gets the compiled modules, not the compiler. Where apt or pip cannot fetch them, or the
# build fails, tools/compile_engine.py says why and leaves pure Python: the image builds anyway.
FROM python:3.11-slim AS engine
ENV PYTHONDONTWRITEBYTECODE=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /build
RUN { apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev \
      && pip install "mypy>=1.11" "setuptools>=68"; } \
    || echo "no C compiler or mypyc: the engine stays pure Python"
# Only what the build reads, so a change outside the engine does not compile it again.
COPY pyproject.toml README.md ./
COPY pbem/__init__.py pbem/
COPY pbem/engine pbem/engine
COPY tools/compile_engine.py tools/
RUN python tools/compile_engine.py

FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1 \
    PORT=8000 \
    WEB_CONCURRENCY=1

WORKDIR /app
RUN useradd --create-home --uid 10001 --user-group pbem

# Dependencies first, so a code change does not reinstall them.
COPY pyproject.toml README.md ./
COPY pbem/__init__.py pbem/
RUN pip install .

# The checkout itself (templates/ and migrations/ live beside the package), installed
# editable so the web process, `pbem db-upgrade` and the instance folder all use /app; then
# the engine's compiled modules from the first stage, if it built them. In compat mode the
# install puts /app itself on the path, where the compiled engine's shared library lives, and
# --check removes a build that the installed `pbem` could not load (pure Python then).
COPY . .
COPY --from=engine /build/ /app/
RUN pip install --no-deps -e . --config-settings editable_mode=compat \
    && python tools/compile_engine.py --check \
    && mkdir -p /app/instance \
    && chown pbem:pbem /app/instance

USER pbem
EXPOSE 8000

# /healthz answers 200 only while the database answers. The request names SERVER_NAME as
# its host, so a configured TRUSTED_HOSTS does not refuse the check itself.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
    CMD python -c "import http.client, os, sys; c = http.client.HTTPConnection('127.0.0.1', int(os.environ.get('PORT', '8000')), timeout=4); c.request('GET', '/healthz', headers={'Host': os.environ.get('SERVER_NAME') or 'localhost'}); sys.exit(0 if c.getresponse().status == 200 else 1)"

# The release step (migrations) runs before serving: a host without a release phase needs
# nothing else. Where several instances start at once, run `pbem db-upgrade` as the
# host's release command instead and override CMD with the gunicorn line alone.
CMD ["sh", "-c", "pbem db-upgrade && exec gunicorn 'pbem.app:create_app()' --config gunicorn.conf.py --bind 0.0.0.0:${PORT}"]
