"""Run the multi-process scheduler tests again and again with CPU hogs beside them.

    .venv/bin/python benchmarks/repeat_under_load.py [--runs 20] [--hogs 2] [tests ...]
    PBEM_TEST_DATABASE_URL=postgresql+psycopg://postgres@127.0.0.1:5432/test \\
        .venv/bin/python benchmarks/repeat_under_load.py --runs 20

Issue 25, point 3 asks that the multi-process tests pass 20 runs in a row with a CPU hog
running beside them: a test that waits on another process with a fixed sleep, or races a
lease against the wall clock, fails there and nowhere else. ``--hogs`` processes spin
(``while True: pass``) for the whole run; each run is one pytest process over the test files
(without xdist, so the hogs are not outnumbered by workers). It prints each run's result and
the count of runs passed, stops at the first failure with ``--stop``, and exits non-zero if
any run failed. Not part of the test suite: a run takes minutes.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
MULTI_PROCESS_TESTS = (
    "tests/scheduler/test_single_process.py",  # three web processes share the due work
    "tests/scheduler/test_tick_lock.py",  # the tick lock across processes
    "tests/scheduler/test_sweep_safety.py",  # two sweepers at once, one killed half-way
    "tests/scheduler/test_overdue_reminders.py",  # several overdue reminders: one rule
    "tests/scheduler/test_clean_stop.py",  # pbem clock stopped by SIGTERM mid-batch
    "tests/faults/test_clock_attacks.py",  # pbem clock killed mid-sweep; two clocks
    "tests/scheduler/test_shared_work.py",  # four processes SIGKILLed at random (PostgreSQL)
    "tests/scheduler/test_pgbouncer.py",  # two scheduler processes behind PgBouncer
)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=20)
    parser.add_argument("--hogs", type=int, default=1, help="CPU-spinning processes beside")
    parser.add_argument("--stop", action="store_true", help="stop at the first failed run")
    parser.add_argument("tests", nargs="*", default=list(MULTI_PROCESS_TESTS))
    args = parser.parse_args()
    tests = [t for t in args.tests if (REPO / t).exists()]
    hogs = [subprocess.Popen([sys.executable, "-c", "while True: pass"])
            for _ in range(args.hogs)]
    passed = run = 0
    try:
        for run in range(1, args.runs + 1):
            began = time.monotonic()
            result = subprocess.run(
                [sys.executable, "-m", "pytest", "-n", "0", "-q", "-p", "no:cacheprovider",
                 *tests],
                cwd=REPO, capture_output=True, text=True, check=False)
            seconds = time.monotonic() - began
            summary = (result.stdout.strip().splitlines() or ["(no output)"])[-1]
            ok = result.returncode == 0
            passed += ok
            print(f"run {run}/{args.runs}: {'pass' if ok else 'FAIL'} in {seconds:.0f} s "
                  f"-- {summary}", flush=True)
            if not ok:
                print(result.stdout[-4000:], result.stderr[-2000:], sep="\n", flush=True)
                if args.stop:
                    break
    finally:
        for hog in hogs:
            hog.kill()
            hog.wait()
    print(f"{passed} of {run} runs passed with {args.hogs} CPU hog(s) beside them")
    return 0 if passed == run else 1


if __name__ == "__main__":
    sys.exit(main())
