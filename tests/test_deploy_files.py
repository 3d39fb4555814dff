"""render.yaml, the Dockerfile and the Procfile name commands, routes and settings that exist.

There is no Docker engine on most test machines, so the files are checked against the code:
the web command's factory builds an app, ``pbem db-upgrade`` is a real command, ``/healthz``
is a real route, and every variable the files set is one the app (or gunicorn.conf.py, or the
host) reads. Where a Docker daemon answers, the image is built as well.
"""

from __future__ import annotations

import importlib
import re
import shlex
import shutil
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml
from flask import Flask
from werkzeug.serving import make_server

from pbem.config import API_MAIL_BACKENDS, MAIL_BACKENDS, load_config

REPO = Path(__file__).resolve().parent.parent
RENDER = yaml.safe_load((REPO / "render.yaml").read_text(encoding="utf-8"))
DOCKERFILE = (REPO / "Dockerfile").read_text(encoding="utf-8")
DEPLOY_DOC = (REPO / "docs/deploy.md").read_text(encoding="utf-8")
README = (REPO / "README.md").read_text(encoding="utf-8")
# Read by the host or by gunicorn.conf.py, not by the app: PORT is where gunicorn binds.
HOST_VARIABLES = {"PORT", "PYTHONDONTWRITEBYTECODE", "PYTHONUNBUFFERED", "PIP_NO_CACHE_DIR",
                  "PIP_DISABLE_PIP_VERSION_CHECK"}
GUNICORN_VARIABLES = {"WEB_CONCURRENCY", "PBEM_WEB_THREADS"}
# What a deployed site cannot do without.
DEPLOY_NEEDS = {"DATABASE_URL", "SECRET_KEY", "SERVER_NAME", "PREFERRED_URL_SCHEME",
                "MAIL_BACKEND", "MAIL_API_KEY", "MAIL_FROM", "TICK_TOKEN"}


class RecordingEnviron(dict[str, str]):
    """An environment that remembers every name looked up in it."""

    def __init__(self, values: dict[str, str], seen: set[str]) -> None:
        super().__init__(values)
        self.seen = seen

    def get(self, key: str, default: Any = None) -> Any:  # type: ignore[override]
        self.seen.add(key)
        return super().get(key, default)

    def __getitem__(self, key: str) -> str:
        self.seen.add(key)
        return super().__getitem__(key)

    def __contains__(self, key: object) -> bool:
        self.seen.add(str(key))
        return super().__contains__(key)


def variables_the_app_reads() -> set[str]:
    """Every name ``load_config`` looks up, whichever mail backend is chosen."""
    seen: set[str] = set()
    for backend in MAIL_BACKENDS:
        environ = {"MAIL_BACKEND": backend}
        if backend in API_MAIL_BACKENDS:
            environ.update(MAIL_API_KEY="k", MAILGUN_DOMAIN="mg.example.org")
        load_config(RecordingEnviron(environ, seen))
    return seen


def web_service() -> dict[str, Any]:
    [service] = [s for s in RENDER["services"] if s["type"] == "web"]
    return dict(service)


def render_variables() -> dict[str, dict[str, Any]]:
    return {entry["key"]: entry for entry in web_service()["envVars"]}


def dockerfile_variables() -> set[str]:
    names: set[str] = set()
    for block in re.findall(r"^ENV (.+?)(?<!\\)$", DOCKERFILE, re.MULTILINE | re.DOTALL):
        names.update(re.findall(r"([A-Z_][A-Z0-9_]*)=", block))
    return names


def dockerfile_command() -> str:
    match = re.search(r"^CMD (\[.*\])$", DOCKERFILE, re.MULTILINE)
    assert match, "the Dockerfile has an exec-form CMD"
    argv = yaml.safe_load(match.group(1))  # a JSON array is YAML too
    assert argv[:2] == ["sh", "-c"]
    return str(argv[2])


def procfile() -> dict[str, str]:
    lines = (REPO / "Procfile").read_text(encoding="utf-8").splitlines()
    return dict(line.split(": ", 1) for line in lines if line.strip())


WEB_COMMANDS = {
    "render.yaml": web_service()["startCommand"],
    "Dockerfile": dockerfile_command(),
    "Procfile": procfile()["web"],
}


def gunicorn_part(command: str) -> list[str]:
    """The words of the gunicorn command in ``a && b && gunicorn ...``."""
    for part in command.split("&&"):
        words = shlex.split(part.strip().removeprefix("exec "))
        if words and words[0] == "gunicorn":
            return words
    raise AssertionError(f"no gunicorn command in {command!r}")


@pytest.mark.parametrize("source", sorted(WEB_COMMANDS))
def test_the_web_command_names_a_factory_that_builds_the_app(source: str,
                                                              tmp_path: Path) -> None:
    words = gunicorn_part(WEB_COMMANDS[source])
    spec = next(w for w in words[1:] if ":" in w and not w.startswith("0.0.0.0"))
    module_name, _, call = spec.partition(":")
    assert call.endswith("()"), "gunicorn calls the application factory"
    factory = getattr(importlib.import_module(module_name), call[:-2])
    app = factory({"SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'x.sqlite3'}",
                   "SECRET_KEY": "k"}, instance_path=tmp_path)
    assert isinstance(app, Flask)
    config = words[words.index("--config") + 1]
    assert (REPO / config).is_file()
    assert words[words.index("--bind") + 1] == "0.0.0.0:$PORT" or "${PORT}" in words[
        words.index("--bind") + 1]


@pytest.mark.slow
@pytest.mark.parametrize("source", ["render.yaml", "Dockerfile"])
def test_the_release_step_is_a_real_command(source: str) -> None:
    command = WEB_COMMANDS[source]
    assert command.startswith("pbem db-upgrade && ")
    script = Path(sys.executable).with_name("pbem")
    shown = subprocess.run([str(script), "db-upgrade", "--help"], capture_output=True,
                           text=True, timeout=120, check=False)
    assert shown.returncode == 0, shown.stderr
    assert "migration" in shown.stdout.lower()
    assert procfile()["release"] == "pbem db-upgrade"


def test_the_health_check_path_is_a_real_route(app: Flask) -> None:
    assert web_service()["healthCheckPath"] == "/healthz"
    assert "/healthz" in {rule.rule for rule in app.url_map.iter_rules()}
    assert app.test_client().get("/healthz").status_code == 200


def test_the_blueprint_wires_its_database_and_generates_its_secrets() -> None:
    variables = render_variables()
    database = variables["DATABASE_URL"]["fromDatabase"]
    assert database["property"] == "connectionString"
    assert database["name"] in {d["name"] for d in RENDER["databases"]}
    for secret in ("SECRET_KEY", "TICK_TOKEN"):
        assert variables[secret] == {"key": secret, "generateValue": True}
    for asked in ("SERVER_NAME", "MAIL_API_KEY", "MAIL_FROM"):
        assert variables[asked].get("sync") is False  # asked for, never committed
    assert variables["MAIL_BACKEND"]["value"] in API_MAIL_BACKENDS  # no SMTP on Render free
    assert variables["PREFERRED_URL_SCHEME"]["value"] == "https"


def test_render_trusts_its_load_balancer_and_the_docs_give_each_hosts_hops() -> None:
    """Behind Render's proxy with PROXY_HOPS=0 every visitor had the proxy's address: the rate
    limits counted the whole site as one client (issue 26, point 8)."""
    assert render_variables()["PROXY_HOPS"]["value"] == "1"
    assert load_config({"PROXY_HOPS": "1"})["PROXY_HOPS"] == 1
    table = DEPLOY_DOC.split("| where the app runs | `PROXY_HOPS` |", 1)[1].split("\n\n", 1)[0]
    for host in ("Render", "Heroku", "Koyeb", "Fly", "Cloud Run", "nginx", "CDN", "directly"):
        assert host in table, host


def test_every_variable_the_files_set_is_read_by_someone() -> None:
    app_reads = variables_the_app_reads()
    gunicorn_conf = (REPO / "gunicorn.conf.py").read_text(encoding="utf-8")
    for name in GUNICORN_VARIABLES:
        assert f'os.environ.get("{name}"' in gunicorn_conf
    readers = app_reads | GUNICORN_VARIABLES | HOST_VARIABLES
    assert set(render_variables()) - readers == set()
    assert dockerfile_variables() - readers == set()
    assert "PORT" in dockerfile_variables()


def test_every_variable_a_deploy_needs_is_set_or_documented() -> None:
    app_reads = variables_the_app_reads()
    assert app_reads >= DEPLOY_NEEDS
    assert set(render_variables()) >= DEPLOY_NEEDS
    for name in sorted(app_reads):
        assert f"`{name}`" in README or f"`{name}`" in DEPLOY_DOC, (
            f"{name} is read by pbem/config.py but documented nowhere")
    for name in DEPLOY_NEEDS:
        assert f"`{name}`" in DEPLOY_DOC, f"docs/deploy.md does not say how to fill {name}"


def test_the_image_copies_what_the_app_needs_and_runs_unprivileged() -> None:
    """Read from the Dockerfile; where a Docker daemon answers, the image is built too."""
    assert re.search(r"^FROM python:3\.11-slim\b", DOCKERFILE, re.MULTILINE)
    user = re.findall(r"^USER (\S+)$", DOCKERFILE, re.MULTILINE)
    assert user and user[-1] not in ("root", "0")
    assert re.search(r"^HEALTHCHECK .*\n?.*CMD python -c", DOCKERFILE, re.MULTILINE)
    ignored = {line.strip() for line in (REPO / ".dockerignore").read_text().splitlines()
               if line.strip() and not line.startswith("#")}
    for private in (".git", ".venv", "instance", ".env"):
        assert private in ignored
    for needed in ("pbem", "templates", "migrations", "gunicorn.conf.py", "pyproject.toml",
                   "README.md", "requirements.txt"):
        assert needed not in ignored and (REPO / needed).exists()
    if docker_answers():
        built = subprocess.run(["docker", "build", "-q", "-t", "pbem-deploy-test", str(REPO)],
                               capture_output=True, text=True, timeout=1800, check=False)
        assert built.returncode == 0, built.stderr


def health_check_command() -> str:
    match = re.search(r"CMD python -c \"(.+)\"$", DOCKERFILE, re.MULTILINE)
    assert match
    return match.group(1)


@pytest.fixture
def served(make_app: Any) -> Iterator[tuple[Flask, int]]:
    app = make_app(SERVER_NAME="pbem.example.org", TRUSTED_HOSTS=["pbem.example.org"])
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield app, server.server_port
    server.shutdown()


def run_health_check(port: int) -> int:
    env = {"PORT": str(port), "SERVER_NAME": "pbem.example.org", "PATH": "/usr/bin:/bin"}
    done = subprocess.run([sys.executable, "-c", health_check_command()], env=env,
                          capture_output=True, timeout=60, check=False)
    return done.returncode


def test_the_image_health_check_passes_on_a_healthy_app(served: tuple[Flask, int]) -> None:
    assert run_health_check(served[1]) == 0


def test_the_image_health_check_fails_when_the_database_does_not_answer(
        make_app: Any, tmp_path: Path) -> None:
    unreachable = f"sqlite:///{tmp_path / 'missing-dir' / 'db.sqlite3'}"
    app = make_app(SERVER_NAME="pbem.example.org", SQLALCHEMY_DATABASE_URI=unreachable)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        answer = app.test_client().get("/healthz", headers={"Host": "pbem.example.org"})
        assert answer.status_code == 503  # so exit status 1 is the check failing, not a crash
        assert run_health_check(server.server_port) == 1
    finally:
        server.shutdown()


def docker_answers() -> bool:
    docker = shutil.which("docker")
    if docker is None:
        return False
    return subprocess.run([docker, "info"], capture_output=True, timeout=30,
                          check=False).returncode == 0


def test_the_cron_workflow_in_the_docs_is_valid_and_calls_the_tick() -> None:
    blocks = re.findall(r"```yaml\n(.*?)```", DEPLOY_DOC, re.DOTALL)
    workflows = [yaml.safe_load(b) for b in blocks if "schedule" in b]
    assert workflows, "docs/deploy.md shows a scheduled workflow"
    workflow = workflows[0]
    on = workflow.get("on", workflow.get(True))  # YAML 1.1 reads a bare `on` as True
    assert re.fullmatch(r"[\d*/,\- ]+", on["schedule"][0]["cron"])
    steps = [s for job in workflow["jobs"].values() for s in job["steps"]]
    run = " ".join(s.get("run", "") for s in steps)
    assert "/tasks/tick" in run and "Authorization: Bearer" in run and "TICK_TOKEN" in run


def dockerfile_stages() -> list[str]:
    """The Dockerfile's build stages, each from its FROM line on."""
    return ["FROM " + stage for stage in re.split(r"^FROM ", DOCKERFILE, flags=re.MULTILINE)[1:]]


def run_lines(stage: str) -> list[str]:
    """The shell commands of a stage's RUN instructions, continuation lines joined."""
    joined = re.sub(r"\\\n\s*", " ", stage)
    return [line.removeprefix("RUN ").strip() for line in joined.splitlines()
            if line.startswith("RUN ")]


def test_the_image_compiles_the_engine_and_builds_without_a_compiler() -> None:
    """Issue 28, point 2: the engine compiled in every deploy that can, pure Python in one
    that cannot (tools/compile_engine.py exits 0 then: tests/test_compile_engine.py)."""
    engine_stage, image = dockerfile_stages()
    assert engine_stage.startswith("FROM python:3.11-slim AS engine")
    assert image.startswith("FROM python:3.11-slim\n")  # the same Python as the engine's stage
    engine_runs = run_lines(engine_stage)
    assert engine_runs[-1] == "python tools/compile_engine.py"
    toolchain = engine_runs[0]
    assert "gcc" in toolchain and "mypy" in toolchain
    assert re.search(r"\}\s*\|\|\s*echo ", toolchain), "no compiler must not stop the build"
    # The image takes what the stage built, loads it through its install, and keeps it only
    # if the installed `pbem` loads it.
    assert "COPY --from=engine /build/ /app/" in image
    install = next(line for line in run_lines(image) if "pip install --no-deps -e ." in line)
    assert "editable_mode=compat" in install
    assert "python tools/compile_engine.py --check" in install
    assert image.index("COPY --from=engine") < image.index(install.split(" && ")[0])
    for command in [*engine_runs, *run_lines(image)]:
        assert subprocess.run(["sh", "-n", "-c", command], check=False).returncode == 0, command
    ignored = {line.strip() for line in (REPO / ".dockerignore").read_text().splitlines()}
    assert "tools" not in ignored and (REPO / "tools" / "compile_engine.py").is_file()
    assert {"*.so", "**/*.so"} <= ignored  # a checkout's own stale build never gets in


def test_render_compiles_the_engine_and_builds_without_a_compiler() -> None:
    command = web_service()["buildCommand"]
    steps = [step.strip() for step in command.split(" && ")]
    assert steps[0] == "pip install -e . --config-settings editable_mode=compat"
    assert steps[-1] == "python tools/compile_engine.py"
    mypyc = steps[1]
    assert "pip install" in mypyc and "mypy" in mypyc and "|| echo" in mypyc
    assert subprocess.run(["sh", "-n", "-c", command], check=False).returncode == 0
