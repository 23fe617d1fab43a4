"""Every limit the service puts on what a request may ask of it, each with its own error.

The service is public and single-box: one request that makes the engine loop,
the search parse a megabyte or the YAML loader expand an alias bomb would take
a worker away from every other player. Each limit below is a named constant so
the tests, the OpenAPI document and the error messages quote the same number,
and each failure says which limit was hit and by how much, so a client can fix
its request instead of guessing.

Which limits a view needs is declared on the view itself with ``@limited``
(a search query, a body, a posted scenario, an engine run), not in a table of
route names: a renamed route keeps its limits, and ``tests/test_security.py``
walks the URL map so a new route that takes input cannot forget to declare them.

This module knows numbers, messages, the per-view declarations and the checks
that need nothing but the input (``check_scenario``), so ``replay.py`` can use
the very same scenario checks for the sandbox as the API gets. ``security.py``
applies them to requests and turns ``LimitExceeded`` into the API's
``{status, code, message, limit}``.
"""
from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable, TypeVar

import yaml

from app.engine.core.errors import ECHO_CHARS, excerpt  # noqa: F401 (re-exported for the web side)


@dataclass(frozen=True)
class Limit:
    """One bound: how much is allowed, the HTTP status and error code when it is exceeded."""

    name: str
    value: int | float
    unit: str
    status: int
    code: str
    what: str            # what is measured, as the message names it

    def check(self, actual: int | float, detail: str = "") -> None:
        """Raise ``LimitExceeded`` when ``actual`` is over the limit."""
        if actual > self.value:
            raise LimitExceeded(self, actual, detail)

    def message(self, actual: int | float | None = None, detail: str = "") -> str:
        got = "" if actual is None else f" is {_num(actual)} {self.unit}"
        more = f" ({detail})" if detail else ""
        return f"{self.what}{got}; the limit is {_num(self.value)} {self.unit}{more}"


class LimitExceeded(Exception):
    """A request went over one ``Limit``; carries what the error response needs."""

    def __init__(self, limit: Limit, actual: int | float | None = None, detail: str = ""):
        self.limit, self.actual = limit, actual
        self.status, self.code = limit.status, limit.code
        self.message = limit.message(actual, detail)
        super().__init__(self.message)


def _num(x: int | float) -> str:
    return f"{x:g}" if isinstance(x, float) else f"{x:,}".replace(",", " ")


# Search: the query parser's work grows with the text; 200 characters is a long question.
QUERY_CHARS = Limit("query length", 200, "characters", 400, "query_too_long", "the search query")
# The request line as a whole (gunicorn refuses longer lines itself at 4094 bytes).
URL_CHARS = Limit("URL length", 4000, "characters", 414, "url_too_long", "the URL")
# Card, section and scenario slugs, in UTF-8 bytes (a file name holds at most 255; 100 CJK characters
# are 300): the longest real slug is far shorter; an unknown
# slug triggers a nearest-name search whose cost grows with its length.
SLUG_BYTES = Limit("slug length", 120, "bytes (UTF-8)", 404, "slug_too_long", "the name in the URL")
# Any request body (Flask's MAX_CONTENT_LENGTH).
BODY_BYTES = Limit("request body size", 256 * 1024, "bytes", 413, "body_too_large", "the request body")
# A posted scenario: its text, its YAML/JSON nodes (aliases counted every time they are
# used, so an alias bomb is refused before anything walks it) and its nesting.
SCENARIO_BYTES = Limit("scenario size", 64_000, "bytes", 413, "scenario_too_large", "the scenario")
SCENARIO_NODES = Limit("scenario values", 20_000, "values", 413, "scenario_too_large",
                       "the scenario (counting every list item, key and value)")
SCENARIO_DEPTH = Limit("scenario nesting", 20, "levels", 400, "scenario_too_deep", "the scenario's nesting")
# A posted sandbox form: a pasted or uploaded scenario at its own limit (above), plus the
# sandbox link (``sandbox.MAX_TOKEN``, 8 000 characters), the other fields and the
# multipart framing, with room to spare.
FORM_BYTES = Limit("form size", SCENARIO_BYTES.value + 32 * 1024, "bytes", 413, "form_too_large",
                   "the submitted form")
# Replays: the number of steps a scenario lists, the engine step budget it may ask
# for with ``step_limit``, and the wall-clock time one replay may take.
REPLAY_STEPS = Limit("replay steps", 300, "steps", 400, "too_many_steps", "the scenario's list of steps")
ENGINE_STEPS = Limit("engine step limit", 20_000, "engine steps", 400, "step_limit_too_high",
                     "the scenario's step_limit")
REPLAY_SECONDS = Limit("replay time", 3.0, "seconds", 422, "replay_timeout",
                       "the replay was stopped because it ran too long")

# Any number a request gives as text (a form field, a JSON integer): Python refuses to convert more
# than 4,300 digits, so a longer one must be refused before int() sees it; no count needs more than this.
NUMBER_DIGITS = Limit("number length", 15, "digits", 400, "number_too_long", "a number")

ALL = (QUERY_CHARS, URL_CHARS, SLUG_BYTES, BODY_BYTES, FORM_BYTES, SCENARIO_BYTES, SCENARIO_NODES, SCENARIO_DEPTH,
       REPLAY_STEPS, ENGINE_STEPS, REPLAY_SECONDS, NUMBER_DIGITS)


# ------------------------------------------------------------------ numbers, JSON and echoes
def whole_number(text: Any, low: int, high: int) -> int | None:
    """``text`` as a whole number from ``low`` to ``high``, or None: digits only, checked for length first."""
    raw = str(text if text is not None else "").strip()
    if not raw or len(raw) > len(str(high)) or not raw.isascii() or not raw.isdigit():
        return None
    n = int(raw)
    return n if low <= n <= high else None


def _bounded_int(text: str) -> int:
    digits = len(text.lstrip("-"))
    if digits > NUMBER_DIGITS.value:
        raise LimitExceeded(NUMBER_DIGITS, digits, "a JSON integer")
    return int(text)


def parse_json(text: str | bytes) -> Any:
    """``json.loads`` for request input: integers bounded by ``NUMBER_DIGITS`` before Python converts them,
    and nesting past the parser's recursion refused as ``SCENARIO_DEPTH``. Raises ``LimitExceeded`` or
    ``ValueError`` (text that is not JSON)."""
    try:
        return json.loads(text, parse_int=_bounded_int)
    except RecursionError:
        raise LimitExceeded(SCENARIO_DEPTH, detail="JSON nested deeper than the parser allows") from None


# ------------------------------------------------------------------ per-view declarations
LIMITS_ATTR = "rulings_limits"

F = TypeVar("F", bound=Callable[..., Any])


@dataclass(frozen=True)
class ViewLimits:
    """What one view takes from a request, so the request can be bounded before the view runs.

    ``query``: the query-string parameter holding free search text (``QUERY_CHARS``).
    ``body``: the bound on the request body (``BODY_BYTES`` applies to every request anyway).
    ``scenario``: the body is a scenario, checked by ``check_scenario`` before the view.
    ``replay``: the view runs the engine on input from the request, under ``REPLAY_SECONDS``.
    """

    query: str | None = None
    body: Limit | None = None
    scenario: bool = False
    replay: bool = False


def limited(*, query: str | None = None, body: Limit | None = None, scenario: bool = False,
            replay: bool = False) -> Callable[[F], F]:
    """Declare a view's limits; ``security.py`` enforces them for whichever route the view is under.

    Only marks the function (no wrapper), so the decorator may sit above or below
    ``@bp.get``/``@bp.post`` and still mark the very function Flask registered.
    """
    if scenario and body is None:
        body = SCENARIO_BYTES
    if body is not None and not isinstance(body, Limit):
        raise TypeError(f"limited(body=...) takes a Limit, got {body!r}")
    marker = ViewLimits(query=query, body=body, scenario=scenario, replay=replay)

    def mark(view: F) -> F:
        setattr(view, LIMITS_ATTR, marker)
        return view

    return mark


def limits_of(view: Callable[..., Any] | None) -> ViewLimits | None:
    """The limits a view declared (None when it declared none); survives ``functools.wraps``."""
    return getattr(view, LIMITS_ATTR, None) if view is not None else None


# ------------------------------------------------------------------ scenario checks
def check_scenario(data: bytes | str, mimetype: str = "application/yaml") -> None:
    """Bound a scenario's size, values, nesting, steps and step budget before the engine sees it.

    Raises ``LimitExceeded``. Text that does not parse is left to the scenario
    loader, whose error names the line. YAML is only *composed* (nodes, no
    objects), and aliases are counted every time they are used, so an alias bomb
    is refused without ever being expanded.
    """
    raw = data.encode("utf-8", "replace") if isinstance(data, str) else data
    SCENARIO_BYTES.check(len(raw))
    text = data if isinstance(data, str) else data.decode("utf-8", "replace")
    if mimetype == "application/json":
        try:
            obj = parse_json(text)
        except LimitExceeded:
            raise
        except ValueError:
            return
        if isinstance(obj, dict) and set(obj) == {"scenario"} and isinstance(obj["scenario"], str):
            text = obj["scenario"]
        else:
            _check_tree(obj)
            _check_steps(obj)
            return
    try:
        node = yaml.compose(text, Loader=yaml.SafeLoader)
    except RecursionError:
        raise LimitExceeded(SCENARIO_DEPTH, detail="YAML nested deeper than the parser allows") from None
    except yaml.YAMLError:
        return
    if node is None:
        return
    _check_nodes(node)
    if isinstance(node, yaml.MappingNode):
        top: dict[str, Any] = {}
        for k, v in node.value:
            if isinstance(k, yaml.ScalarNode) and k.value in ("steps", "step_limit"):
                top[k.value] = v
        steps = top.get("steps")
        if isinstance(steps, yaml.SequenceNode):
            REPLAY_STEPS.check(len(steps.value))
        step_limit = top.get("step_limit")
        if isinstance(step_limit, yaml.ScalarNode):
            _check_step_limit(step_limit.value)


def _check_nodes(root: yaml.Node) -> None:
    """Count values with aliases expanded, as a consumer walking the document would meet them."""
    budget = SCENARIO_NODES.value
    count = 0
    stack: list[tuple[yaml.Node, int]] = [(root, 1)]
    while stack:
        node, depth = stack.pop()
        count += 1
        if count > budget:
            raise LimitExceeded(SCENARIO_NODES, detail="aliases count each time they are used; "
                                                       f"stopped counting at {budget + 1}")
        SCENARIO_DEPTH.check(depth)
        if isinstance(node, yaml.SequenceNode):
            stack.extend((child, depth + 1) for child in node.value)
        elif isinstance(node, yaml.MappingNode):
            for k, v in node.value:
                stack.append((k, depth + 1))
                stack.append((v, depth + 1))


def check_tree(obj: Any) -> None:
    """Bound an already decoded value (a sandbox link's JSON) by the scenario value and nesting limits."""
    _check_tree(obj)


def _check_tree(obj: Any) -> None:
    budget = SCENARIO_NODES.value
    count = 0
    stack: list[tuple[Any, int]] = [(obj, 1)]
    while stack:
        item, depth = stack.pop()
        count += 1
        if count > budget:
            raise LimitExceeded(SCENARIO_NODES, detail=f"stopped counting at {budget + 1}")
        SCENARIO_DEPTH.check(depth)
        if isinstance(item, list):
            stack.extend((child, depth + 1) for child in item)
        elif isinstance(item, dict):
            for k, v in item.items():
                stack.append((k, depth + 1))
                stack.append((v, depth + 1))


def _check_steps(obj: Any) -> None:
    if not isinstance(obj, dict):
        return
    if isinstance(obj.get("steps"), list):
        REPLAY_STEPS.check(len(obj["steps"]))
    if "step_limit" in obj:
        _check_step_limit(obj["step_limit"])


def _check_step_limit(raw: Any) -> None:
    text = str(raw).strip() if not isinstance(raw, int) else None
    if text is not None and (len(text) > NUMBER_DIGITS.value or not text.isdigit()):
        return  # not a number, or a long one: the scenario loader says so, naming the line
    ENGINE_STEPS.check(raw if isinstance(raw, int) else int(text))
