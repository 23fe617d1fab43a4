"""Errors a replay can stop with; each names where (file, line, step) and what was expected."""
from __future__ import annotations

import reprlib
from typing import Any

# How much of a scenario's or a request's own text an error message quotes back.
ECHO_CHARS = 60


def excerpt(value: Any, chars: int = ECHO_CHARS) -> str:
    """A short excerpt of a value someone sent, for an error message: never the whole input, and never a
    conversion that can itself fail (a 5,000-digit number, a list nested 5,000 deep)."""
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 60:
        return _digits(value)
    text = _REPR.repr(value)
    return text if len(text) <= chars else text[:chars] + f"... ({len(text)} characters)"


def _digits(x: int) -> str:
    return f"a number of about {int(x.bit_length() * 0.30103) + 1} digits"


class _ShortRepr(reprlib.Repr):
    def repr_int(self, x: int, level: int) -> str:
        return _digits(x) if x.bit_length() > 60 else repr(x)


_REPR = _ShortRepr()
_REPR.maxstring, _REPR.maxother, _REPR.maxlevel = ECHO_CHARS, ECHO_CHARS, 3


class EngineError(Exception):
    """A rule of the game was asked to do something impossible (a bug or bad input)."""


class EngineLimitError(EngineError):
    """The step limit was reached: a loop (e.g. King's Court chains) must stop, not hang."""


class IllegalAction(EngineError):
    """A scenario step that is not legal now (wrong phase, card not in hand, no Actions...)."""

    def __init__(self, message: str, legal: list[str] | None = None):
        self.legal = legal or []
        if legal is not None:
            message += f"; legal now: {', '.join(legal) if legal else '(nothing)'}"
        super().__init__(message)


class ScenarioError(Exception):
    """Bad scenario input or a failed replay, reported as ``file:line (step N): message``."""

    def __init__(self, file: str, message: str, line: int | None = None, step: int | None = None):
        self.file = file
        self.line = line
        self.step = step
        self.message = message
        where = file + (f":{line}" if line else "")
        if step is not None:
            where += f" (step {step})"
        super().__init__(f"{where}: {message}")
