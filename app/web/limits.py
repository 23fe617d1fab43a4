"""Every limit the service puts on what a request may ask of it, each with its own error.

The service is public and single-box: one request that makes the engine loop,
the search parse a megabyte or the YAML loader expand an alias bomb would take
a worker away from every other player. Each limit below is a named constant so
the tests, the OpenAPI document and the error messages quote the same number,
and each failure says which limit was hit and by how much, so a client can fix
its request instead of guessing.

This module only knows numbers and messages; ``security.py`` applies them to
requests and turns ``LimitExceeded`` into the API's ``{status, code, message}``.
"""
from __future__ import annotations

from dataclasses import dataclass


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
# Card, section and scenario slugs: the longest real slug is far shorter; an unknown
# slug triggers a nearest-name search whose cost grows with its length.
SLUG_CHARS = Limit("slug length", 120, "characters", 404, "slug_too_long", "the name in the URL")
# Any request body (Flask's MAX_CONTENT_LENGTH).
BODY_BYTES = Limit("request body size", 256 * 1024, "bytes", 413, "body_too_large", "the request body")
# A posted scenario: its text, its YAML/JSON nodes (aliases counted every time they are
# used, so an alias bomb is refused before anything walks it) and its nesting.
SCENARIO_BYTES = Limit("scenario size", 64_000, "bytes", 413, "scenario_too_large", "the scenario")
SCENARIO_NODES = Limit("scenario values", 20_000, "values", 413, "scenario_too_large",
                       "the scenario (counting every list item, key and value)")
SCENARIO_DEPTH = Limit("scenario nesting", 20, "levels", 400, "scenario_too_deep", "the scenario's nesting")
# Replays: the number of steps a scenario lists, the engine step budget it may ask
# for with ``step_limit``, and the wall-clock time one replay may take.
REPLAY_STEPS = Limit("replay steps", 300, "steps", 400, "too_many_steps", "the scenario's list of steps")
ENGINE_STEPS = Limit("engine step limit", 20_000, "engine steps", 400, "step_limit_too_high",
                     "the scenario's step_limit")
REPLAY_SECONDS = Limit("replay time", 3.0, "seconds", 422, "replay_timeout",
                       "the replay was stopped because it ran too long")

ALL = (QUERY_CHARS, URL_CHARS, SLUG_CHARS, BODY_BYTES, SCENARIO_BYTES, SCENARIO_NODES, SCENARIO_DEPTH,
       REPLAY_STEPS, ENGINE_STEPS, REPLAY_SECONDS)
