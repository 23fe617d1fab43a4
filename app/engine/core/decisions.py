"""The one decision interface: every choice in the game is a Question answered by a Decider.

A scenario supplies answers in order. A missing answer raises NeedDecision and
an illegal one IllegalDecision, both carrying the question and its legal
options, so the web sandbox can re-run a scenario with the answers so far and
show the next question (replay is deterministic, so that is exact).
Choices with only one possible outcome are answered automatically and do not
consume an answer; that keeps scenarios short and readable.
"""
from __future__ import annotations

import json
import re
from collections import Counter
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any, Iterator


@dataclass
class Question:
    player: str
    prompt: str
    kind: str                      # 'cards' | 'yesno' | 'choice' | 'order'
    options: list[Any]             # Card objects for 'cards'/'order', labels for 'choice'
    min: int = 1
    max: int = 1
    first_only: bool = False       # 'order' asked again after each one resolves (triggered abilities): the first matters
    about: str = ""                # the card the question is about, when the prompt does not name it (Ctx.ask fills it)

    def option_labels(self) -> list[str]:
        return [getattr(o, "name", str(o)) for o in self.options]

    def legal_answers(self) -> list[str]:
        """What a player may answer, as text: a yes/no question has no options list but two answers."""
        return ["yes", "no"] if self.kind == "yesno" else self.option_labels()

    def describe(self) -> str:
        """The question and its legal answers exactly as a scenario must write them (quoted where YAML needs it)."""
        if self.kind == "yesno":
            legal = "yes, no"
        else:
            legal = ", ".join(dict.fromkeys(written(x) for x in self.option_labels())) or "(none)"
        count = ""
        if self.kind == "cards":
            count = f" (choose {self.min})" if self.min == self.max else f" (choose {self.min} to {self.max})"
            if self.min == 0:
                legal += "; or none"
        elif self.kind == "order":
            legal += " (one at a time, first first, or all of them as a list)"
        return f"{self.player}: {self.prompt}{count}; legal: {legal}"

    def forced(self) -> Any | None:
        """The answer when there is only one possible outcome, else None."""
        if self.kind == "cards":
            if self.max == 0 or not self.options:
                return []
            names = Counter(self.option_labels())
            if self.min == self.max and (self.min >= len(self.options) or len(names) == 1):
                return list(self.options[: self.min])
            return None
        if self.kind == "order":
            if len(set(self.option_labels())) <= 1:
                return list(self.options)
            return None
        if self.kind == "choice" and len(self.options) == 1:
            return self.options[0]
        return None


_PLAIN = re.compile(r"^[A-Za-z0-9$+(][^,\[\]{}#&*!|>\"%@`]*$")


def written(label: str) -> str:
    """``label`` as a YAML answer list must spell it: bare when YAML reads it back as that text, else quoted."""
    text = str(label)
    if _PLAIN.match(text) and ": " not in text and not text.endswith((":", " ")):
        return text
    return json.dumps(text, ensure_ascii=False)


@contextmanager
def resolving(decider: Any, name: str) -> Iterator[None]:
    """While ``name``'s ability resolves, a question that names no card is about it (issue #35).

    A decider without a ``context`` (a test's own) just asks without it.
    """
    context = getattr(decider, "context", None)
    if not isinstance(context, list):
        yield
        return
    context.append(name)
    try:
        yield
    finally:
        context.pop()


class DecisionError(Exception):
    """A choice the scenario's answers could not settle; keeps the Question so callers can show it.

    ``step`` and ``line`` are filled in by the replay (``scenario.replay``),
    which knows which scenario step was running; the card code that asks
    does not.
    """

    def __init__(self, question: Question, message: str):
        self.question = question
        self.reason = message
        self.step: int | None = None
        self.line: int | None = None
        super().__init__(f"{message}: {question.describe()}")


class NeedDecision(DecisionError):
    """No answer was supplied for a choice that has more than one outcome."""


class IllegalDecision(DecisionError):
    """The supplied answer is not one of the legal options."""


_YES = {"yes", "y", "true", "1"}
_NO = {"no", "n", "false", "0"}


@dataclass
class Asked:
    """One question as the replay met it: for ``rulings replay FILE --questions`` and for error messages."""

    step: int | None          # the scenario step it was asked in (set by the replay)
    question: Question
    result: Any               # what it resolved to (card objects, a label, True/False)
    auto: bool                # decided automatically: one possible outcome, no answer used
    answer: int | None = None  # which answer of the step it used (1 = the first), None when automatic

    def outcome(self) -> str:
        r = self.result
        if isinstance(r, bool):
            return "yes" if r else "no"
        if isinstance(r, list):
            return ", ".join(written(getattr(c, "name", str(c))) for c in r) or "none"
        return written(getattr(r, "name", str(r)))


def names_question(raw: Any) -> bool:
    """Whether an answer names the question it is for: ``{question: TEXT, answer: ...}``."""
    return isinstance(raw, dict) and "question" in raw and "answer" in raw


def fits(q: Question, text: str) -> bool:
    """Whether ``text`` names this question: a part of "PLAYER: PROMPT" (or "PLAYER: CARD: PROMPT" when the
    question is about a card its prompt does not name), any case."""
    wanted = str(text).strip().lower()
    return wanted in f"{q.player}: {q.prompt}".lower() or (
        bool(q.about) and wanted in f"{q.player}: {q.about}: {q.prompt}".lower())


@dataclass
class Decider:
    """Hands out the scenario's answers in order and checks them against the legal options.

    An answer may name the question it is for (``{question: "trash from your discard pile", answer: Curse}``):
    it must land on a question whose "player: prompt" contains that text, or the replay stops there, naming
    both; a question decided automatically (one possible outcome) takes such an answer when it names it, so a
    judge may write an answer for every question without knowing which are automatic.
    """

    answers: list[Any] = field(default_factory=list)
    used: int = 0
    asked: list[tuple[Question, Any]] = field(default_factory=list)
    record: list[Asked] = field(default_factory=list)
    step: int | None = None
    context: list[str] = field(default_factory=list)   # the abilities resolving now, innermost last (resolving())

    def load(self, answers: list[Any], step: int | None = None) -> None:
        self.answers = list(answers)
        self.used = 0
        self.step = step

    def remaining(self) -> list[Any]:
        return self.answers[self.used:]

    def _note(self, q: Question, result: Any, auto: bool, answer: int | None) -> Any:
        self.asked.append((q, result))
        self.record.append(Asked(self.step, q, result, auto, answer))
        return result

    def ask(self, q: Question) -> Any:
        if not q.about and self.context and self.context[-1].split(" (")[0] not in q.prompt:
            q.about = self.context[-1]     # "Royal Carriage (Tavern mat)": its card is the name before the bracket
        forced = q.forced()
        if forced is not None:
            nxt = self.answers[self.used] if self.used < len(self.answers) else None
            if names_question(nxt) and fits(q, nxt["question"]):
                # an answer written for a question that turned out to have one possible outcome
                self.used += 1
                given = self._check(q, nxt["answer"])
                if _label(given) != _label(forced):
                    raise IllegalDecision(q, f"answer {self.used} ({nxt['answer']!r}) names this question, but "
                                          f"only one outcome is possible here ({_label(forced)})")
                return self._note(q, forced, True, self.used)
            return self._note(q, forced, True, None)
        raw = self._next(q)
        result = self._check(q, raw)
        return self._note(q, result, False, self.used)

    def _next(self, q: Question) -> Any:
        """The next answer for ``q``; one that names another question stops here, naming both."""
        if self.used >= len(self.answers):
            raise NeedDecision(q, "an answer is needed" + self._after_automatic())
        raw = self.answers[self.used]
        self.used += 1
        if names_question(raw):
            if not fits(q, raw["question"]):
                raise IllegalDecision(q, f"answer {self.used} ({raw['answer']!r}) was written for a question "
                                      f"containing {raw['question']!r}, but it landed on another question"
                                      + self._after_automatic())
            raw = raw["answer"]
        return raw

    def _after_automatic(self) -> str:
        """A hint when the question before, in this step, was decided automatically (using no answer)."""
        last = self.record[-1] if self.record else None
        if last is None or not last.auto or last.answer is not None or last.step != self.step:
            return ""
        return (f" (the question before it, \"{last.question.player}: {last.question.prompt}\", had one possible "
                f"outcome, {last.outcome()}, and was decided automatically without using an answer)")

    def _check(self, q: Question, raw: Any) -> Any:
        try:
            return self._checked(q, raw)
        except IllegalDecision as exc:
            hint = self._after_automatic()
            if hint and hint not in exc.reason:
                raise type(exc)(q, exc.reason + hint) from None
            raise

    def _checked(self, q: Question, raw: Any) -> Any:
        if q.kind == "yesno":
            if isinstance(raw, bool):
                return raw
            text = str(raw).strip().lower()
            if text in _YES:
                return True
            if text in _NO:
                return False
            raise IllegalDecision(q, f"answer {raw!r} is not yes or no")
        if q.kind == "choice":
            for o in q.options:
                if str(o).lower() == str(raw).strip().lower():
                    return o
            raise IllegalDecision(q, f"answer {raw!r} is not one of the options")
        # cards / order: match names to distinct card instances
        names = _as_names(raw)
        pool = list(q.options)
        chosen = []
        for n in names:
            hit = next((c for c in pool if c.name.lower() == n.lower()), None)
            if hit is None:
                raise IllegalDecision(q, f"answer {raw!r}: {n!r} is not available")
            pool.remove(hit)
            chosen.append(hit)
        if q.kind == "order":
            if q.first_only and chosen:      # the rest is asked again once the first has resolved
                return chosen + pool
            return self._rest_of_order(q, chosen, pool)
        if not (q.min <= len(chosen) <= q.max):
            raise IllegalDecision(q, f"answer {raw!r} chooses {len(chosen)} cards")
        return chosen

    def _rest_of_order(self, q: Question, chosen: list, pool: list) -> list:
        """An order given one label at a time: the next answers name the next ones, the last one goes by itself."""
        if not chosen and pool:
            raise IllegalDecision(q, "an order needs at least the first one")
        while len(pool) > 1:
            rest = Question(q.player, f"{q.prompt} (then, after {', '.join(c.name for c in chosen)})", "order", pool)
            raw = self._next(rest)
            for n in _as_names(raw):
                hit = next((c for c in pool if c.name.lower() == n.lower()), None)
                if hit is None:
                    raise IllegalDecision(rest, f"answer {raw!r}: {n!r} is not available")
                pool.remove(hit)
                chosen.append(hit)
        return chosen + pool


def _label(result: Any) -> Any:
    if isinstance(result, list):
        return sorted(getattr(c, "name", str(c)) for c in result)
    return getattr(result, "name", result)


def _as_names(raw: Any) -> list[str]:
    if raw is None:
        return []
    if isinstance(raw, str):
        return [] if raw.strip().lower() in ("", "none", "nothing") else [raw.strip()]
    if isinstance(raw, (list, tuple)):
        return [str(x).strip() for x in raw]
    return [str(raw)]
