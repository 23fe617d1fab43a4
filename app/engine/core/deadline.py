"""A wall-clock deadline for one replay, checked where the engine already counts its steps.

The web app gives a replay a few seconds (``app/web/limits.py``). Checking the
clock from a profiling hook stopped runaway replays but made every replay 3.3x
slower, since the hook runs on every Python call. The engine already counts each
card movement (``Game.tick``, which enforces ``step_limit``); looking at the
clock there, every ``CHECK_EVERY`` steps, costs nothing measurable and stops a
runaway loop within a fraction of a millisecond of its deadline. It raises only
at that well-defined point, never inside an import or a half-made update.

The deadline is a context variable, so threads (the development server) and
concurrent requests each have their own; with none set, nothing is checked.
"""
from __future__ import annotations

import contextlib
import time
from contextvars import ContextVar
from typing import Iterator

CHECK_EVERY = 64          # engine steps between two looks at the clock (a power of two)

_deadline: ContextVar[float | None] = ContextVar("engine_deadline", default=None)


class DeadlineExceeded(BaseException):
    """The replay ran past its deadline.

    A BaseException so that no ``except Exception`` in the engine swallows it.
    """


@contextlib.contextmanager
def deadline_at(when: float) -> Iterator[None]:
    """Run the block with a deadline at ``when`` (``time.monotonic()`` seconds)."""
    token = _deadline.set(when)
    try:
        yield
    finally:
        _deadline.reset(token)


def check() -> None:
    """Raise ``DeadlineExceeded`` when the current deadline has passed (no deadline: nothing)."""
    when = _deadline.get()
    if when is not None and time.monotonic() > when:
        raise DeadlineExceeded()
