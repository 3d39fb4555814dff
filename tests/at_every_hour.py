"""Run the tests marked ``quiet_hours`` again with the machine's clock at five times of day.

    python -m tests.at_every_hour [--jobs N] [pytest arguments...]

Reminders, digests and autopilot turns depend on the seats' quiet hours (22:00 to 08:00 local
by default), so a test that reads the wall clock by accident passes at noon and fails at night
(issue 22). Each run starts the whole pytest process (and every server process it starts) with
its clock set to one of ``HOURS`` today, UTC, through libfaketime: ``LD_PRELOAD`` with a
``FAKETIME`` offset, so the clock goes on running from that time. The monotonic clock is left
alone (timeouts, sleeps and locks keep working).

The library is the PyPI package ``libfaketime`` (a dev dependency), which carries its own
build: Debian's libfaketime 0.9.10 breaks Python 3.11, whose ``time.sleep`` fails with EINVAL
when the monotonic clock is left alone (wolfcw/libfaketime#426) and whose timed waits hang
when it is not (#390). ``tests/conftest.py`` checks at the start of each run that the clock
reads the hour asked for, so a preload that did not take cannot pass unnoticed.

``--jobs N`` runs N hours at once (``.ci/run`` runs all five beside the suite: their tests
spend much of their time waiting on the processes they start). Each hour's output is printed
when it ends: its last lines when it passed, all of it when it failed.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor
from datetime import UTC, datetime
from importlib.util import find_spec
from pathlib import Path

HOURS = ("03:00", "07:59", "08:00", "12:00", "23:30")
CLOCK_AT_ENV = "PBEM_TEST_CLOCK_AT"  # "HH:MM": what tests/conftest.py checks the clock reads


def faketime_library() -> Path:
    """The libfaketime shared object inside the ``libfaketime`` package (not imported: its
    ``__init__`` needs more than the path)."""
    spec = find_spec("libfaketime")
    if spec is None or spec.origin is None:
        raise SystemExit("at_every_hour: the libfaketime package is not installed "
                         "(pip install -e '.[dev]')")
    library = Path(spec.origin).parent / "vendor" / "libfaketime" / "src" / "libfaketime.so.1"
    if not library.exists():
        raise SystemExit(f"at_every_hour: {library} is missing")
    return library


def offset_to(hour: str, now: datetime) -> str:
    """The ``FAKETIME`` offset, in seconds, that moves ``now`` to ``hour`` (HH:MM) today."""
    hours, minutes = (int(part) for part in hour.split(":"))
    target = now.replace(hour=hours, minute=minutes, second=0, microsecond=0)
    seconds = round((target - now).total_seconds())
    return f"{seconds:+d}"


def run_at(hour: str, library: Path, pytest_args: list[str]) -> int:
    environ = dict(os.environ)
    environ.update(
        LD_PRELOAD=str(library),
        FAKETIME=offset_to(hour, datetime.now(UTC)),
        FAKETIME_DONT_FAKE_MONOTONIC="1",
        **{CLOCK_AT_ENV: hour},
    )
    command = [sys.executable, "-m", "pytest", "-m", "quiet_hours", "-q",
               "-p", "no:cacheprovider", *pytest_args]
    began = time.monotonic()
    run = subprocess.run(command, env=environ, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, text=True, errors="replace")
    lines = run.stdout.splitlines()
    shown = lines if run.returncode else lines[-3:]
    print("\n".join(f"[{hour}] {line}" for line in shown))
    print(f"at_every_hour: {hour} UTC: {'passed' if run.returncode == 0 else 'FAILED'} "
          f"in {time.monotonic() - began:.0f} s", flush=True)
    return run.returncode


def main(argv: list[str]) -> int:
    jobs = 1
    if argv[:1] == ["--jobs"]:
        jobs, argv = int(argv[1]), argv[2:]
    library = faketime_library()
    with ThreadPoolExecutor(max_workers=jobs) as pool:
        statuses = list(pool.map(lambda hour: run_at(hour, library, argv), HOURS))
    failed = [hour for hour, status in zip(HOURS, statuses, strict=True) if status != 0]
    if failed:
        print(f"at_every_hour: failed at {', '.join(failed)} UTC", file=sys.stderr)
        return 1
    print(f"at_every_hour: passed at {', '.join(HOURS)} UTC")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
