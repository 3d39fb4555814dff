"""Load test: a real gunicorn server on 127.0.0.1 with PostgreSQL, many clients submitting
legal moves through the JSON API.

    PBEM_BENCH_DATABASE_URL=postgresql+psycopg://postgres@127.0.0.1:5432/test \\
        .venv/bin/python benchmarks/load.py [--games 200] [--clients 32] [--seconds 10]

It builds a scratch schema (``pbem_load``, dropped and recreated), creates ``--games`` 2-seat
games through the service, starts gunicorn (gthread workers) and measures, beside the targets:

- submissions: closed loop (as fast as the clients go), then paced at ``--rate`` per second:
  requests/s, p50 and p99 latency (target p99 < 50 ms at 200 submissions/s);
- ``/healthz`` closed loop, the bare route's ceiling (target: submissions >= 0.3x of it);
- the turn page ``GET /play/<link>``: p50 render time (target < 30 ms);
- RSS per worker after the run (target <= 80 MB).

Each client owns its games, so no submission is stale; each picks a legal move at random
from the last answer (the API returns the menu with every response).
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

import flask_migrate
import sqlalchemy as sa

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pbem.app import create_app  # noqa: E402
from pbem.extensions import db  # noqa: E402
from pbem.services import games, tokens  # noqa: E402
from pbem.services.games import SeatSpec  # noqa: E402

SCHEMA = "pbem_load"
SECRET = "load-test-secret"
TARGETS = {"p99_ms": 50.0, "ratio": 0.3, "page_p50_ms": 30.0, "rss_mb": 80.0}


def schema_url(url: str) -> str:
    engine = sa.create_engine(url)
    with engine.begin() as conn:
        conn.execute(sa.text(f'DROP SCHEMA IF EXISTS "{SCHEMA}" CASCADE'))
        conn.execute(sa.text(f'CREATE SCHEMA "{SCHEMA}"'))
    engine.dispose()
    return sa.make_url(url).update_query_dict(
        {"options": f"-csearch_path={SCHEMA}"}).render_as_string(hide_password=False)


def make_games(url: str, count: int) -> list[dict[str, Any]]:
    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": SECRET},
                     instance_path=tempfile.mkdtemp())
    out = []
    with app.app_context():
        flask_migrate.upgrade()
        for n in range(count):
            game = games.create_game(
                name=f"Load {n}", host_email="host@example.org",
                seats=[SeatSpec("Ana", f"ana{n}@example.org"),
                       SeatSpec("Bo", f"bo{n}@example.org")],
                options={}, seed=1000 + n, fixed_order=True)
            out.append({"id": game.public_id,
                        "links": [tokens.make_seat_link(game, s) for s in game.seats]})
        db.engine.dispose()
    return out


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(url: str, port: int, workers: int, threads: int) -> subprocess.Popen[bytes]:
    env = dict(os.environ, DATABASE_URL=url, SECRET_KEY=SECRET, MAIL_BACKEND="dev")
    app = "pbem.app:create_app({'API_RATE_LIMIT': 0})"
    proc = subprocess.Popen(
        [str(Path(sys.executable).parent / "gunicorn"), "-w", str(workers), "--threads",
         str(threads), "-k", "gthread", "-b", f"127.0.0.1:{port}", "--log-level", "warning",
         app], cwd=ROOT, env=env)
    for _ in range(100):
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            conn.request("GET", "/healthz")
            if conn.getresponse().status == 200:
                return proc
        except OSError:
            time.sleep(0.1)
    proc.terminate()
    raise SystemExit("gunicorn did not start")


class Client(threading.Thread):
    """One keep-alive connection; plays its own games (or hits one path) until told to stop."""

    def __init__(self, port: int, tables: list[dict[str, Any]], stop: threading.Event,
                 interval: float = 0.0, path: str | None = None) -> None:
        super().__init__(daemon=True)
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.tables, self.stop, self.interval, self.path = tables, stop, interval, path
        self.latencies: list[float] = []
        self.errors = 0
        self.rng = random.Random(len(tables))

    def call(self, method: str, path: str, body: Any = None,
             token: str | None = None) -> tuple[int, Any]:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = json.dumps(body) if body is not None else None
        self.conn.request(method, path, body=data, headers=headers)
        response = self.conn.getresponse()
        raw = response.read()
        return response.status, json.loads(raw) if raw and path.startswith("/api") else None

    def run(self) -> None:
        states = {}
        if self.path is None:
            for t in self.tables:
                status, data = self.call("GET", f"/api/games/{t['id']}/seat", token=t["links"][0])
                states[t["id"]] = data
        next_at = time.perf_counter()
        while not self.stop.is_set():
            if self.interval:
                next_at += self.interval
                time.sleep(max(0.0, next_at - time.perf_counter()))
            start = time.perf_counter()
            if self.path is not None:
                status, _ = self.call("GET", self.path)
            else:
                status = self.submit(states)
                if status is None:
                    return
            self.latencies.append(time.perf_counter() - start)
            self.errors += status != 200

    def submit(self, states: dict[str, Any]) -> int | None:
        live = [t for t in self.tables if states[t["id"]]["awaiting"] is not None]
        if not live:
            return None
        t = self.rng.choice(live)
        data = states[t["id"]]
        seat = data["awaiting"]
        if seat != data["seat"]["index"]:
            _, data = self.call("GET", f"/api/games/{t['id']}/seat", token=t["links"][seat])
        move = self.rng.choice(data["legal"])["notation"]
        status, answer = self.call("POST", f"/api/games/{t['id']}/actions",
                                   {"version": data["version"], "notation": move},
                                   token=t["links"][seat])
        if status == 200:
            states[t["id"]] = answer
        else:
            _, states[t["id"]] = self.call("GET", f"/api/games/{t['id']}/seat",
                                           token=t["links"][seat])
        return status


def run_phase(port: int, tables: list[dict[str, Any]], clients: int, seconds: float,
              rate: float = 0.0, path: str | None = None) -> dict[str, float]:
    stop = threading.Event()
    share = [tables[i::clients] for i in range(clients)]
    interval = clients / rate if rate else 0.0
    pool = [Client(port, share[i], stop, interval, path) for i in range(clients)]
    start = time.perf_counter()
    for c in pool:
        c.start()
    time.sleep(seconds)
    stop.set()
    for c in pool:
        c.join(30)
    elapsed = time.perf_counter() - start
    lat = sorted(x for c in pool for x in c.latencies)
    if not lat:
        return {"rps": 0.0, "p50": 0.0, "p99": 0.0, "errors": 0}
    return {"rps": len(lat) / elapsed, "p50": lat[len(lat) // 2] * 1000,
            "p99": lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000,
            "errors": sum(c.errors for c in pool), "n": len(lat)}


def page_p50(port: int, tables: list[dict[str, Any]], n: int = 200) -> float:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    times = []
    for i in range(n):
        t = tables[i % len(tables)]
        start = time.perf_counter()
        conn.request("GET", f"/play/{t['links'][0]}")
        response = conn.getresponse()
        response.read()
        assert response.status == 200, response.status
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def worker_rss_mb(master: int) -> list[float]:
    out = []
    for pid in Path("/proc").iterdir():
        if not pid.name.isdigit():
            continue
        try:
            status = (pid / "status").read_text()
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        if fields.get("PPid", "").strip() == str(master):
            out.append(int(fields["VmRSS"].split()[0]) / 1024)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--rate", type=float, default=200.0)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--threads", type=int, default=4)
    args = parser.parse_args()
    base = os.environ.get("PBEM_BENCH_DATABASE_URL",
                          "postgresql+psycopg://postgres@127.0.0.1:5432/test")
    url = schema_url(base)
    print(f"creating {args.games} games…", flush=True)
    tables = make_games(url, args.games)
    port = free_port()
    server = start_server(url, port, args.workers, args.threads)
    try:
        bare = run_phase(port, tables, args.clients, args.seconds / 2, path="/healthz")
        full = run_phase(port, tables, args.clients, args.seconds)
        paced = run_phase(port, tables, args.clients, args.seconds, rate=args.rate)
        page = page_p50(port, tables)
        rss = worker_rss_mb(server.pid)
    finally:
        server.terminate()
        server.wait(10)
    ratio = full["rps"] / bare["rps"] if bare["rps"] else 0.0
    row = "{:<34} {:>10} {:>9} {:>9} {:>7}"
    print(row.format("", "req/s", "p50 ms", "p99 ms", "errors"))
    for name, r in (("/healthz (ceiling)", bare), ("submissions, closed loop", full),
                    (f"submissions, paced at {args.rate:g}/s", paced)):
        print(row.format(name, f"{r['rps']:.0f}", f"{r['p50']:.1f}", f"{r['p99']:.1f}",
                         r["errors"]))
    ok = lambda good: "ok" if good else "MISSED"  # noqa: E731
    print(f"\np99 at {args.rate:g}/s: {paced['p99']:.1f} ms (target < {TARGETS['p99_ms']:g}) "
          f"{ok(paced['p99'] < TARGETS['p99_ms'] and paced['rps'] >= 0.95 * args.rate)}")
    print(f"submissions / bare route: {ratio:.2f}x (target >= {TARGETS['ratio']}) "
          f"{ok(ratio >= TARGETS['ratio'])}")
    print(f"turn page p50: {page:.1f} ms (target < {TARGETS['page_p50_ms']:g}) "
          f"{ok(page < TARGETS['page_p50_ms'])}")
    print(f"RSS per worker: {', '.join(f'{m:.0f}' for m in rss)} MB "
          f"(target <= {TARGETS['rss_mb']:g}) {ok(bool(rss) and max(rss) <= TARGETS['rss_mb'])}")


if __name__ == "__main__":
    main()
