"""Attacks on the running server (issue #13): each test reproduces one hole the attack found
against a real gunicorn process, counts tries / got through / lost / 5xx and asserts the
targets (0 through, 0 lost, 0 5xx). The figures go to ``artifacts/faults-<worker>.md`` for
``benchmarks/RESULTS.md``."""
