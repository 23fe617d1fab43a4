"""A scenario as a player reads it: the question's answer first, the starting table, then the moves.

The replay (``ScenarioIndex.replay``) gives the log and the zones; the store's
scenario row (``ScenarioFacts``) says which log line settles the question and
which cards are involved. Here they become one view with the moves in words
("Play Throne Room") and the table before the first move, so the page never
shows the scenario's test vocabulary (expectations, answers lists).
"""
from __future__ import annotations

from typing import Any

import yaml

from app.corpus.model import slugify
from app.web import replay as rp

STEP_WORDS = {"play": "Play {arg}", "buy": "Buy {arg}", "end_turn": "End the turn",
              "play_treasures": "Play all Treasures"}


def step_words(action: str, arg: Any) -> str:
    """A move as a player says it; a step kind added by a mechanism reads as its name."""
    if isinstance(arg, (list, tuple)):
        arg = ", ".join(map(str, arg))
    elif arg is True or arg is None:
        arg = ""
    template = STEP_WORDS.get(action)
    if template:
        return template.format(arg=arg).strip()
    return f"{action.replace('_', ' ').capitalize()} {arg}".strip()


def starting_table(sid: str) -> dict[str, Any] | None:
    """The zones before the first move, as the engine builds the table from the file."""
    from app.engine import scenario as sc_mod

    scen = rp.load_id(sid)
    if scen is None:
        return None
    return sc_mod.snapshot(sc_mod.build(scen))


def _settling(replayed: dict[str, Any], row: dict[str, Any] | None) -> int | None:
    log = replayed["log"]
    if row is not None and row.get("settles_at") is not None and 0 <= row["settles_at"] < len(log):
        return row["settles_at"]
    moves = [i for i, e in enumerate(log) if e.get("step") is not None]
    return moves[-1] if moves else None


_WHOLE_STEP = 5   # a settling move this short is shown whole: the lines around the answer are part of it


def _stated(source: str) -> list[str]:
    """The log lines the scenario file itself says must happen (``expect: log:``, at the end or after a step)."""
    try:
        raw = yaml.safe_load(source)
    except yaml.YAMLError:
        return []
    out: list[str] = []
    expects = [raw.get("expect")] + [st.get("expect") for st in raw.get("steps") or [] if isinstance(st, dict)] \
        if isinstance(raw, dict) else []
    for exp in expects:
        if isinstance(exp, dict) and isinstance(exp.get("log"), list):
            out += [str(x) for x in exp["log"] if isinstance(x, str)]
    return out


def answer_lines(log: list[dict[str, Any]], at: int | None, source: str) -> list[int]:
    """Which log lines answer the question: the settling line, the lines the file states must happen,
    and the whole settling move when it is short; in the order they happened."""
    if at is None:
        return []
    picked = {at}
    stated = _stated(source)
    for i, e in enumerate(log):
        if e.get("step") is not None and any(s in e["text"] for s in stated):
            picked.add(i)
    step = log[at].get("step")
    same = [i for i, e in enumerate(log) if step is not None and e.get("step") == step]
    if len(same) <= _WHOLE_STEP:
        picked.update(same)
    return sorted(picked)[:6]


def scenario_view(replayed: dict[str, Any], row: dict[str, Any] | None) -> dict[str, Any]:
    """The replay plus: the settling line (index and entry), the starting table, the cards, the moves in words."""
    view = dict(replayed)
    at = _settling(replayed, row)
    view["settles_at"] = at
    view["settles"] = replayed["log"][at] if at is not None else None
    view["answer"] = [replayed["log"][i] for i in answer_lines(replayed["log"], at, replayed.get("source", ""))]
    view["start"] = starting_table(replayed["id"])
    view["cards"] = [{"name": c, "url": f"/cards/{slugify(c)}"} for c in (row or {}).get("cards") or []]
    view["moves"] = [{**st, "words": step_words(st["action"], st["arg"])} for st in replayed["steps"]]
    view["sandbox_url"] = f"/try?scenario={replayed['id']}"
    return view
