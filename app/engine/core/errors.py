"""Errors a replay can stop with; each names where (file, line, step) and what was expected."""
from __future__ import annotations


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
