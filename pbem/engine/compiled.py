"""What the optional compiled build (mypyc; benchmarks/compiled.py) needs of the engine's code.

The engine is plain Python and that is the reference; the compiled build must play exactly the
same games (its run of tests/engine checks it). mypyc turns a class into a fast native class
unless the class has a decorator other than `dataclass`: then it stays an ordinary Python
class, whose methods are still compiled.
"""

from __future__ import annotations

from typing import TypeVar

T = TypeVar("T", bound=type)


def interpreted(cls: T) -> T:
    """Keep `cls` an ordinary Python class under mypyc (it changes nothing in pure Python).

    For generic dataclasses: mypyc's native classes cannot be both `Generic` and a dataclass
    (class creation fails with "attribute '__dict__' of 'type' objects is not writable"), and
    their subclasses must then stay interpreted too.
    """
    return cls
