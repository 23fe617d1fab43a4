"""An executable card definition, said in words, so a player can check it against the printed card.

The engine's effects are small dataclasses composed into a tree; this walks the
tree generically (fields, nested effects) rather than keeping a second,
hand-written description per card that could drift from the code that runs.
Card-specific functions (``Do``) are named by their docstring or function name.
"""
from __future__ import annotations

import dataclasses
import re
from typing import Any

_PHRASES = {
    "PlusActions": "+{n} Action(s)",
    "PlusBuys": "+{n} Buy(s)",
    "PlusCoins": "+${n}",
    "Draw": "+{n} Card(s)",
}


def _camel(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", " ", name).lower()


def _citation(c: dict | None) -> str:
    if not c:
        return ""
    try:
        from app.engine.narrate import render_citation
        return render_citation(c)
    except Exception:  # noqa: BLE001 - a citation label is decoration, never fatal
        return ""


def _fn_name(fn: Any) -> str:
    doc = (getattr(fn, "__doc__", None) or "").strip().splitlines()
    if doc:
        return doc[0].rstrip(".")
    name = getattr(fn, "__name__", "a card-specific rule").strip("_").replace("_", " ")
    return name if name != "<lambda>" else "a card-specific rule"


def words(effect: Any, depth: int = 0) -> list[dict[str, Any]]:
    """A flat list of ``{depth, text, cite}`` lines describing ``effect`` and what it contains."""
    if effect is None or depth > 12:
        return []
    cls = type(effect).__name__
    cite = _citation(getattr(effect, "cite", None))
    if cls == "Sequence":
        out: list[dict[str, Any]] = []
        for e in getattr(effect, "effects", ()):
            out += words(e, depth)
        return out
    n = getattr(effect, "n", None) if hasattr(effect, "n") else None
    if cls in _PHRASES:
        amount = n if n is not None else next((v for v in _values(effect) if isinstance(v, int)), "?")
        if callable(amount):
            amount = "X"
            return [{"depth": depth, "text": _PHRASES[cls].format(n=amount) + f" (X: {_fn_name(n)})",
                     "cite": cite}]
        return [{"depth": depth, "text": _PHRASES[cls].format(n=amount), "cite": cite}]
    if cls == "Do":
        return [{"depth": depth, "text": _fn_name(getattr(effect, "fn", None)), "cite": cite}]
    parts = []
    nested: list[Any] = []
    described = getattr(effect, "describe", None)
    described = described if isinstance(described, str) and described else None
    if dataclasses.is_dataclass(effect):
        for f in dataclasses.fields(effect):
            if f.name in ("cite", "store", "prompt") or (described and f.name in ("describe", "filter")):
                continue
            v = getattr(effect, f.name)
            if _is_effect(v):
                nested.append(v)
            elif isinstance(v, dict) and v and all(_is_effect(x) for x in v.values()):
                nested.extend(_Labelled(k, x) for k, x in v.items())
            elif isinstance(v, (int, str)) and not isinstance(v, bool) and v != "":
                parts.append(f"{f.name.replace('_', ' ')} {v}")
            elif isinstance(v, bool):
                parts.append(f.name.replace("_", " ") if v else f"not {f.name.replace('_', ' ')}")
            elif callable(v):
                parts.append(f"{f.name.replace('_', ' ')}: {_fn_name(v)}")
    text = _camel(cls) + (f" {described}" if described else "") + (f" ({', '.join(parts)})" if parts else "")
    out = [{"depth": depth, "text": text, "cite": cite}]
    for e in nested:
        if isinstance(e, _Labelled):
            out.append({"depth": depth + 1, "text": f"option “{e.label}”:", "cite": ""})
            out += words(e.effect, depth + 2)
        else:
            out += words(e, depth + 1)
    return out


@dataclasses.dataclass
class _Labelled:
    label: str
    effect: Any


def _is_effect(v: Any) -> bool:
    try:
        from app.engine.effects import Effect
    except ImportError:  # pragma: no cover
        return False
    return isinstance(v, Effect)


def _values(effect: Any) -> list[Any]:
    if dataclasses.is_dataclass(effect):
        return [getattr(effect, f.name) for f in dataclasses.fields(effect)]
    return list(vars(effect).values())


def definition_words(card_name: str) -> list[dict[str, Any]]:
    """Every version of a card's executable definition in words; empty when it has none."""
    try:
        from app.engine.registry import _DEFS, _load  # noqa: F401
        from app.engine.registry import versions as _versions
        from app.engine.registry import definition
    except ImportError:
        return []
    out = []
    for v in _versions(card_name):
        d = _DEFS[card_name][v] if v in _DEFS.get(card_name, {}) else None
        if d is None:
            continue
        lines = words(d.play)
        if d.vp is not None:
            lines.append({"depth": 0, "text": f"worth {d.vp} VP" if isinstance(d.vp, int)
                          else f"VP: {_fn_name(d.vp)}", "cite": ""})
        for trig in d.hooks:
            lines.append({"depth": 0, "text": f"{trig.replace('_', '-')} ability: {_fn_name(d.hooks[trig])}",
                          "cite": ""})
        for trig in d.reactions:
            lines.append({"depth": 0, "text": f"Reaction ({trig.replace('_', ' ')})", "cite": ""})
        for trig in d.while_in_play:
            lines.append({"depth": 0, "text": f"while in play ({trig.replace('_', ' ')})", "cite": ""})
        out.append({"version": v or "current", "note": d.note,
                    "is_default": definition(None, card_name) is d, "lines": lines})
    return out
