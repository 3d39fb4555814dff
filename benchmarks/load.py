"""Load test: a real gunicorn server on 127.0.0.1 with PostgreSQL, many clients submitting
legal moves through the JSON API.

    createdb -h 127.0.0.1 -U postgres pbem_load
    PBEM_BENCH_DATABASE_URL=postgresql+psycopg://postgres@127.0.0.1:5432/pbem_load \\
        .venv/bin/python benchmarks/load.py [--games 200] [--clients 32] [--seconds 10]

It builds a scratch schema (``pbem_load``, dropped and recreated), creates ``--games`` 2-seat
games through the service, starts gunicorn with ``gunicorn.conf.py`` (gthread workers,
preloaded app; the API rate limit off) and measures, beside the targets:

- ``/healthz`` closed loop, the bare route's ceiling (target: submissions >= 0.3x of it);
- submissions, closed loop (as fast as the clients go): requests/s, p50, p99;
- submissions paced at ``--rate`` per second, open loop (each connection sends on a fixed
  schedule and latency counts from the scheduled time, so a stall is charged to every
  request it delays): target p99 < 50 ms at 200 submissions/s;
- the turn page ``GET /play/<link>``: p50 render time (target < 30 ms);
- RSS per worker after the run (target <= 80 MB);
- the workers' CPU time per timed request, which other load on the machine does not inflate.

The clients run in ``--procs`` processes (one Python process caps itself near the bare
route's ceiling). Each connection owns its games, so no submission is stale; each picks a
legal move at random from the last answer (the API returns the menu with every response);
when the turn passes it reads the next seat's menu, untimed.
"""

from __future__ import annotations

import argparse
import http.client
import json
import multiprocessing
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

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.scratch_schema import fresh_schema_url  # noqa: E402
from pbem import tokens  # noqa: E402
from pbem.app import create_app  # noqa: E402
from pbem.extensions import db  # noqa: E402
from pbem.services import games  # noqa: E402
from pbem.services.games import SeatSpec  # noqa: E402

SCHEMA = "pbem_load"
SECRET = "load-test-secret"
TARGETS = {"p99_ms": 50.0, "ratio": 0.3, "page_p50_ms": 30.0, "rss_mb": 80.0}


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
        db.session.remove()
        db.engine.dispose()
    return out


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def start_server(url: str, port: int, workers: int, threads: int) -> subprocess.Popen[bytes]:
    env = dict(os.environ, DATABASE_URL=url, SECRET_KEY=SECRET, MAIL_BACKEND="dev")
    app = "pbem.app:create_app({'API_RATE_LIMIT': 0, 'TOKEN_RATE_LIMIT': 0})"
    proc = subprocess.Popen(
        [str(Path(sys.executable).parent / "gunicorn"), "--config", "gunicorn.conf.py",
         "-w", str(workers), "--threads", str(threads), "-b", f"127.0.0.1:{port}",
         "--log-level", "warning", app], cwd=ROOT, env=env)
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
    """One keep-alive connection; plays its own games (or hits one path) until told to stop.

    Paced (``interval`` > 0) it is open loop, as wrk2 is: request *n* is due at
    ``start + n * interval`` whatever happened before, and its latency is counted from that
    due time, so a slow answer also charges the requests it delayed (no coordinated
    omission). Closed loop it sends the next request as soon as the last one is answered.
    """

    def __init__(self, port: int, tables: list[dict[str, Any]], interval: float = 0.0,
                 path: str | None = None, seed: int = 0) -> None:
        super().__init__(daemon=True)
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.tables, self.interval, self.path = tables, interval, path
        self.latencies: list[float] = []
        self.done: list[float] = []  # completion times, for the throughput achieved
        self.errors = 0
        self.rng = random.Random(seed)
        self.states: dict[str, Any] = {}
        self.start_at = self.stop_at = 0.0

    def call(self, method: str, path: str, body: Any = None,
             token: str | None = None) -> tuple[int, Any]:
        headers = {"Content-Type": "application/json"}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        data = json.dumps(body) if body is not None else None
        try:
            self.conn.request(method, path, body=data, headers=headers)
            response = self.conn.getresponse()
        except (BrokenPipeError, ConnectionResetError, http.client.RemoteDisconnected):
            self.conn.close()  # the server closed an idle keep-alive connection: once more
            self.conn.request(method, path, body=data, headers=headers)
            response = self.conn.getresponse()
        raw = response.read()
        return response.status, json.loads(raw) if raw and path.startswith("/api") else None

    def prepare(self) -> None:
        """Read each game's picture for the seat it awaits (before the clock starts)."""
        for t in self.tables if self.path is None else ():
            self.refresh(t, 0)

    def refresh(self, t: dict[str, Any], seat: int) -> None:
        """The picture of the seat the game awaits (what that seat's bot would read)."""
        _, data = self.call("GET", f"/api/games/{t['id']}/seat", token=t["links"][seat])
        if data["awaiting"] not in (None, seat):
            _, data = self.call("GET", f"/api/games/{t['id']}/seat",
                                token=t["links"][data["awaiting"]])
        self.states[t["id"]] = data

    def run(self) -> None:
        due = self.start_at + self.rng.random() * self.interval  # spread the first requests
        time.sleep(max(0.0, self.start_at - time.time()))
        while True:
            if self.interval:
                time.sleep(max(0.0, due - time.time()))
                start, due = due, due + self.interval
            else:
                start = time.time()
            if start >= self.stop_at:
                return
            if self.path is not None:
                status, _ = self.call("GET", self.path)
            else:
                status = self.submit()
                if status is None:
                    return
            now = time.time()
            self.latencies.append(now - start)
            self.done.append(now)
            self.errors += status != 200

    def submit(self) -> int | None:
        live = [t for t in self.tables if self.states[t["id"]]["awaiting"] is not None]
        if not live:
            return None
        t = self.rng.choice(live)
        data = self.states[t["id"]]
        seat = data["seat"]["index"]
        move = self.rng.choice(data["legal"])["notation"]
        status, answer = self.call("POST", f"/api/games/{t['id']}/actions",
                                   {"version": data["version"], "notation": move},
                                   token=t["links"][seat])
        if status == 200 and answer["awaiting"] in (None, seat):
            self.states[t["id"]] = answer
        elif status == 200:  # the turn passed: read the next seat's menu (not timed)
            self.refresh(t, answer["awaiting"])
        else:  # a refusal: read the game again
            self.refresh(t, seat)
        return status


def _client_process(port: int, tables: list[dict[str, Any]], threads: int, interval: float,
                    path: str | None, start_at: float, seconds: float, seed: int,
                    out: Any) -> None:
    """One client process: ``threads`` connections sharing ``tables``; sends back latencies."""
    pool = [Client(port, tables[i::threads], interval, path, seed * 1000 + i)
            for i in range(threads)]
    for c in pool:
        c.prepare()
        c.start_at, c.stop_at = start_at, start_at + seconds
    for c in pool:
        c.start()
    for c in pool:
        c.join(seconds + 60)
    done = sum(1 for c in pool for t in c.done if t <= start_at + seconds)
    out.send(([x for c in pool for x in c.latencies], sum(c.errors for c in pool), done))
    out.close()


def run_phase(port: int, tables: list[dict[str, Any]], clients: int, seconds: float,
              rate: float = 0.0, path: str | None = None, procs: int = 2,
              server: int = 0) -> dict[str, float]:
    """``clients`` connections over ``procs`` processes (one Python client process would be
    the bottleneck: its GIL caps it near the bare route's ceiling). ``server``: the gunicorn
    master, whose workers' CPU time per request is reported."""
    cpu_before = workers_cpu_seconds(server) if server else 0.0
    ctx = multiprocessing.get_context("fork")
    threads = max(1, clients // procs)
    interval = procs * threads / rate if rate else 0.0
    start_at = time.time() + 2.0 + len(tables) * 0.004  # after every client has read its games
    pipes, workers = [], []
    for p in range(procs):
        receive, send = ctx.Pipe(duplex=False)
        worker = ctx.Process(target=_client_process, args=(
            port, tables[p::procs], threads, interval, path, start_at, seconds, p, send))
        worker.start()
        pipes.append(receive)
        workers.append(worker)
    results = [r.recv() for r in pipes]
    for w in workers:
        w.join(30)
    cpu = workers_cpu_seconds(server) - cpu_before if server else 0.0
    lat = sorted(x for r in results for x in r[0])
    if not lat:
        return {"rps": 0.0, "p50": 0.0, "p99": 0.0, "errors": 0, "n": 0, "cpu_ms": 0.0}
    return {"rps": sum(r[2] for r in results) / seconds, "p50": lat[len(lat) // 2] * 1000,
            "p99": lat[min(len(lat) - 1, int(len(lat) * 0.99))] * 1000,
            "errors": sum(r[1] for r in results), "n": len(lat),
            "cpu_ms": cpu * 1000 / len(lat)}


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


def workers_cpu_seconds(master: int) -> float:
    """User + system CPU time of the gunicorn workers so far (a figure other load on the
    machine does not inflate, unlike latency)."""
    ticks = 0
    for pid in worker_pids(master):
        try:
            fields = (Path("/proc") / str(pid) / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        ticks += int(fields[11]) + int(fields[12])  # utime, stime
    return ticks / os.sysconf("SC_CLK_TCK")


def worker_pids(master: int) -> list[int]:
    out = []
    for pid in Path("/proc").iterdir():
        if not pid.name.isdigit():
            continue
        try:
            status = (pid / "status").read_text()
        except OSError:
            continue
        if f"\nPPid:\t{master}\n" in status:
            out.append(int(pid.name))
    return out


def worker_rss_mb(master: int) -> list[float]:
    out = []
    for pid in worker_pids(master):
        try:
            status = (Path("/proc") / str(pid) / "status").read_text()
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        out.append(int(fields["VmRSS"].split()[0]) / 1024)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--rate", type=float, default=200.0)
    parser.add_argument("--workers", type=int, default=2)  # as gunicorn.conf.py
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--procs", type=int, default=2, help="client processes")
    args = parser.parse_args()
    base = os.environ.get("PBEM_BENCH_DATABASE_URL",
                          "postgresql+psycopg://postgres@127.0.0.1:5432/pbem_load")
    url = fresh_schema_url(base, SCHEMA)
    print(f"creating {args.games} games…", flush=True)
    tables = make_games(url, args.games)
    port = free_port()
    server = start_server(url, port, args.workers, args.threads)
    try:
        common = {"procs": args.procs, "server": server.pid}
        bare = run_phase(port, tables, args.clients, args.seconds / 2, path="/healthz",
                         **common)
        full = run_phase(port, tables, args.clients, args.seconds, **common)
        paced = run_phase(port, tables, args.clients, args.seconds, rate=args.rate, **common)
        page = page_p50(port, tables)
        rss = worker_rss_mb(server.pid)
    finally:
        server.terminate()
        server.wait(10)
    ratio = full["rps"] / bare["rps"] if bare["rps"] else 0.0
    row = "{:<34} {:>10} {:>9} {:>9} {:>7} {:>13}"
    print(row.format("", "req/s", "p50 ms", "p99 ms", "errors", "CPU ms/req"))
    for name, r in (("/healthz (ceiling)", bare), ("submissions, closed loop", full),
                    (f"submissions, paced at {args.rate:g}/s", paced)):
        print(row.format(name, f"{r['rps']:.0f}", f"{r['p50']:.1f}", f"{r['p99']:.1f}",
                         r["errors"], f"{r['cpu_ms']:.1f}"))
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
