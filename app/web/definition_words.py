"""An executable card definition, said in words, so a player can check it against the printed card.

The engine's effects are small dataclasses composed into a tree; this walks the
tree and phrases each effect from its own fields (amounts, destinations, the
``describe`` text, ``min``/``max``), rather than keeping a second, hand-written
description per card that could drift from the code that runs.

Card-specific steps are functions; they are named by their docstring (the card
files keep one line per function for this). A lambda has no docstring, so it
is named by the documented card function it calls; a lambda that only narrates
(``ctx.log``) is not a rule and says nothing. Where the engine computes an
amount (Cellar's "+1 Card per card discarded", Gardens' VP), the phrase is the
printed card's own sentence from the card facts, never typed here.
"""
from __future__ import annotations

import dataclasses
import re
import types
from typing import Any, Callable

Line = dict[str, Any]

# names a lambda may use and still only narrate (no game change)
_NARRATION_NAMES = {"log", "game", "player", "name", "empty_piles", "len", "R", "sec", "narrate", "source", "str",
                    "last", "vars", "get"}
_ORDINAL_TIMES = {1: "once", 2: "twice", 3: "three times", 4: "four times"}
_VERB_ES = ("sh", "ch", "s", "x", "z")


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:] if text else text


def _low(text: str) -> str:
    """Lower-case the first letter for joining, except card names and '+'/'$' phrases."""
    if not text or not text[0].isupper() or re.match(r"[A-Z][a-z]*[A-Z]|[A-Z]\b", text):
        return text
    first = text.split(" ", 1)[0]
    return text if first in ("I",) else text[:1].lower() + text[1:]


def _citation(c: dict | None) -> str:
    if not c:
        return ""
    try:
        from app.engine.core.narrate import render_citation
        return render_citation(c)
    except Exception:  # noqa: BLE001 - a citation label is decoration, never fatal
        return ""


# ------------------------------------------------------------------ printed card text (card facts)
def _printed(card: str | None) -> str:
    if not card:
        return ""
    try:
        from app.corpus.card_facts import facts_for
    except ImportError:  # pragma: no cover
        return ""
    f = facts_for(card)
    return (f.text or "") if f else ""


def _sentences(card: str | None) -> list[str]:
    text = _printed(card).replace("-----", "\n")
    out = []
    for block in text.splitlines():
        out += [s.strip() for s in re.split(r"(?<=[.!?])\s+", block) if s.strip()]
    return out


def _printed_sentence(card: str | None, *patterns: str) -> str | None:
    """The printed card's sentence (or '+1 Card per …' phrase) matching the first pattern that matches."""
    sentences = _sentences(card)
    for pat in patterns:
        for s in sentences:
            m = re.search(pat, s, re.I)
            if m:
                return m.group(0).rstrip(".").strip()
    return None


# ------------------------------------------------------------------ functions
def _doc(fn: Any) -> str | None:
    doc = (getattr(fn, "__doc__", None) or "").strip()
    if not doc or isinstance(fn, type):
        return None
    return doc.splitlines()[0].strip().rstrip(".")


def _code(fn: Any) -> types.CodeType | None:
    return getattr(fn, "__code__", None)


def _narration_only(fn: Any) -> bool:
    code = _code(fn)
    return code is not None and "log" in code.co_names and set(code.co_names) <= _NARRATION_NAMES


def _closure(fn: Any) -> dict[str, Any]:
    code, cells = _code(fn), getattr(fn, "__closure__", None) or ()
    if code is None:
        return {}
    out = {}
    for name, cell in zip(code.co_freevars, cells):
        try:
            out[name] = cell.cell_contents
        except ValueError:   # an empty cell
            continue
    return out


def _called_doc(fn: Any) -> str | None:
    """The docstring of a documented function a lambda calls (a global, or one in its closure)."""
    code = _code(fn)
    if code is None:
        return None
    scope = {**getattr(fn, "__globals__", {}), **_closure(fn)}
    for name in code.co_names + code.co_freevars:
        if name in _NARRATION_NAMES:
            continue
        target = scope.get(name)
        if isinstance(target, types.FunctionType) and target is not fn \
                and target.__module__.startswith("app.engine.cards."):
            doc = _doc(target) if target.__name__ != "<lambda>" else _called_doc(target)
            if doc:
                return doc
    return None


def _said(fn: Any) -> str | None:
    """A lambda's own sentence ('Lighthouse: Attacks do not affect you until your next turn'), minus the card label."""
    code = _code(fn)
    for c in code.co_consts if code is not None else ():
        if isinstance(c, str) and len(c.split()) >= 4:
            return re.sub(r"^[A-Z][\w' ]*: ", "", c)
    return None


def fn_words(fn: Any, card: str | None = None, *patterns: str) -> str | None:
    """A card-specific function in words; None when it only narrates.

    Order: its own docstring; for a lambda, the printed sentence matching
    ``patterns`` (an amount or VP the engine computes), VP it adds, or the
    documented function it calls; last, the printed card's text.
    """
    doc = _doc(fn)
    lam = getattr(fn, "__name__", "") == "<lambda>"
    if doc and not lam:
        return doc
    if not lam and not getattr(fn, "__module__", "").startswith("app.engine.cards."):
        wrapped = _called_doc(fn)    # a shared wrapper (ongoing.while_mine) around the card's function
        if wrapped:
            return wrapped
    if patterns:
        printed = _printed_sentence(card, *patterns)
        if printed:
            return printed
    if _narration_only(fn):
        return None
    code = _code(fn)
    if code is not None and "add_vp" in code.co_names:
        n = _closure(fn).get("n")
        if isinstance(n, int):
            return f"+{n} VP"
    if lam:
        called = _called_doc(fn)
        if called:
            return called
        said = _said(fn)
        if said:
            return said
    printed = _printed(card).split("-----")[0].strip().replace("\n", " ")
    return f"As printed: “{printed}”" if printed else "A step of this card's own (see the card text)"


# ------------------------------------------------------------------ effects
def _line(depth: int, text: str, effect: Any = None) -> Line:
    return {"depth": depth, "text": text, "cite": _citation(getattr(effect, "cite", None)) if effect else ""}


def _amount(effect: Any, unit: str, card: str | None) -> str:
    n = effect.n
    if callable(n):
        pattern = {"Card": r"\+1 Cards? per [^.,;]+", "$": r"\+?\$1 per [^.,;]+|[^.]*\+\$1 each"}[unit]
        phrase = fn_words(n, card, pattern, r"[^.]*\bper\b[^.]*")
        return phrase if phrase.startswith("+") else f"+{'X Cards' if unit == 'Card' else '$X'}: {_low(phrase)}"
    return f"+${n}" if unit == "$" else f"+{_plural(n, unit)}"


def _destination(to: str) -> str:
    return {"hand": " to your hand", "deck": " onto your deck", "discard": ""}.get(to, f" to your {to}")


def _choose_from_hand(e: Any) -> str:
    what = re.sub(r"\s*\((optional[^)]*|to gain a copy)\)|, to .*$", "", e.describe or "a card").strip()
    lo, hi = e.min, e.max
    optional = isinstance(lo, int) and lo == 0 and isinstance(hi, int) and hi == 1
    verb = {"topdeck": "put", "trash": "trash", "discard": "discard", "reveal": "reveal"}.get(e.verb, e.verb)
    if e.verb == "topdeck":
        rest = "" if "onto your deck" in what else " onto your deck"
        what = what if "from your hand" in what else f"{what} from your hand"
        text = f"{verb} {what}{rest}"
    elif e.verb == "discard":
        text = f"{verb} {what}"
    else:
        text = f"{verb} {what}" + ("" if "from your hand" in what or "," in what else " from your hand")
    return ("You may " + text) if optional else _cap(text)


def _they(text: str) -> str:
    """A 'you' instruction as what another player does: 'Gain a Curse' -> 'gains a Curse'."""
    m = re.fullmatch(r"\+(\d+) Cards?", text)
    if m:
        return "draws a card" if m.group(1) == "1" else f"draws {m.group(1)} cards"
    text = re.sub(r"\byour\b", "their", text)
    text = re.sub(r"\bYou\b|\byou\b", "they", text)
    if text.startswith("they may "):
        return text[len("they "):]
    first, _, rest = text.partition(" ")
    verb = first.lower()
    if verb.endswith(_VERB_ES):
        verb += "es"
    elif verb.endswith("y") and verb[-2:-1] not in "aeiou":
        verb = verb[:-1] + "ies"
    else:
        verb += "s"
    return f"{verb} {rest}".strip()


def _joined(lines: list[Line], sep: str = ", ", lower_first: bool = False) -> str:
    return sep.join(_low(x["text"]) if i or lower_first else x["text"] for i, x in enumerate(lines))


def words(effect: Any, depth: int = 0, card: str | None = None) -> list[Line]:
    """A flat list of ``{depth, text, cite}`` lines describing ``effect`` and what it contains."""
    if effect is None or depth > 12:
        return []
    cls = type(effect).__name__
    if cls == "Sequence":
        out: list[Line] = []
        for e in getattr(effect, "effects", ()):
            inner = words(e, depth, card)
            if type(e).__name__ == "IfYouDid" and out and inner and inner[0].get("if_you_did") \
                    and len(inner) == 1 and out[-1]["depth"] == depth:
                prev = out[-1]
                out[-1] = {**prev, "text": f"{prev['text']}; {_low(inner[0]['text'])}",
                           "cite": prev["cite"] or inner[0]["cite"]}
                continue
            out += inner
        return out
    say = _PHRASES.get(cls)
    if say is not None:
        return say(effect, depth, card)
    return _generic(effect, depth, card)


def _pools(word: str) -> Callable[[Any, int, str | None], list[Line]]:
    return lambda e, d, card: [_line(d, f"+{_plural(e.n, word)}", e)]


def _plus_coins(e: Any, d: int, card: str | None) -> list[Line]:
    return [_line(d, _amount(e, "$", card), e)]


def _draw(e: Any, d: int, card: str | None) -> list[Line]:
    return [_line(d, _amount(e, "Card", card), e)]


def _gain(e: Any, d: int, card: str | None) -> list[Line]:
    what = f"a {e.name}" if e.name else (e.describe or "a card")
    if e.name and e.name[0] in "AEIOU":
        what = f"an {e.name}"
    return [_line(d, f"Gain {what}{_destination(e.to)}", e)]


def _do(e: Any, d: int, card: str | None) -> list[Line]:
    text = fn_words(e.fn, card)
    return [_line(d, _cap(text), e)] if text else []


def _may(e: Any, d: int, card: str | None) -> list[Line]:
    inner = words(e.effect, d, card)
    if len(inner) == 1:
        t = inner[0]["text"]
        return [{**inner[0], "text": t if t.startswith("You may") else f"You may {_low(t)}"}]
    return [_line(d, f"You may: {e.prompt.rstrip('?')}", e)] + [{**x, "depth": x["depth"] + 1} for x in inner]


def _if_you_did(e: Any, d: int, card: str | None) -> list[Line]:
    inner = words(e.effect, d, card)
    if len(inner) == 1:
        return [{**inner[0], "text": f"If you did, {_low(inner[0]['text'])}", "if_you_did": True}]
    return [_line(d, "If you did:", e)] + [{**x, "depth": x["depth"] + 1} for x in inner]


def _choose_one(e: Any, d: int, card: str | None) -> list[Line]:
    who = "The attacker chooses one" if getattr(e, "chooser", "player") == "attacker" else "Choose one"
    out = [_line(d, f"{who}:", e)]
    for label, opt in e.options.items():
        inner = words(opt, d + 2, card)
        said = _joined(inner, "; ") if inner else ""
        if not inner or said.lower() == label.lower():
            out.append(_line(d + 1, f"“{label}”"))
        elif len(inner) == 1:
            out.append({**inner[0], "depth": d + 1, "text": f"“{label}”: {said}"})
        else:
            out.append(_line(d + 1, f"“{label}”:"))
            out += inner
    return out


def _each(prefix: str) -> Callable[[Any, int, str | None], list[Line]]:
    def say(e: Any, d: int, card: str | None) -> list[Line]:
        inner = words(e.effect, d + 1, card)
        if len(inner) == 1:
            t = inner[0]["text"]
            if t.lower().startswith(prefix.lower()):
                return [{**inner[0], "depth": d}]
            if t.startswith("As printed"):
                return [{**inner[0], "depth": d, "text": f"{prefix}: {_low(t)}"}]
            return [{**inner[0], "depth": d, "text": f"{prefix} {_they(_low(t))}",
                     "cite": _citation(getattr(e, "cite", None)) or inner[0]["cite"]}]
        return [_line(d, f"{prefix}, in turn order:", e)] + inner
    return say


def _discard_down(e: Any, d: int, card: str | None) -> list[Line]:
    return [_line(d, f"Discard down to {_plural(e.n, 'card')} in hand", e)]


def _trash_self(e: Any, d: int, card: str | None) -> list[Line]:
    return [_line(d, "Trash this", e)]


def _throne(e: Any, d: int, card: str | None) -> list[Line]:
    times = _ORDINAL_TIMES.get(e.times, f"{e.times} times")
    what = getattr(e, "describe", "an Action card")      # Counterfeit: "a non-Duration Treasure"
    return [_line(d, f"{'You may play' if e.optional else 'Play'} {what} from your hand {times}", e)]


def _later(e: Any, d: int, card: str | None) -> list[Line]:
    return [_line(d, _cap(e.label), e)]


def _next_turn(now: bool) -> Callable[[Any, int, str | None], list[Line]]:
    def say(e: Any, d: int, card: str | None) -> list[Line]:
        inner = words(e.effect, d + 1, card)
        when = "Now and at the start of your next turn" if now else "At the start of your next turn"
        if all(x["depth"] == d + 1 for x in inner):
            return [_line(d, f"{when}: {_joined(inner, ', then ' if not now else ' and ', True)}", e)]
        return [_line(d, f"{when}:", e)] + inner
    return say


def _reduce_costs(e: Any, d: int, card: str | None) -> list[Line]:
    what = re.sub(r"\s*\(everywhere\)", "", e.describe or "cards")
    when = "while this is in play" if e.while_in_play else "this turn"
    return [_line(d, f"{_cap(when)}, {what} cost ${e.amount} less (but not less than $0)", e)]


def _trash_for_cost(e: Any, d: int, card: str | None) -> list[Line]:
    then = _doc(e.then)
    return [_line(d, "Trash a card from your hand" + (f"; {_low(then)}" if then else ""), e)]


_PHRASES: dict[str, Callable[[Any, int, str | None], list[Line]]] = {
    "PlusActions": _pools("Action"), "PlusBuys": _pools("Buy"), "PlusCoins": _plus_coins, "Draw": _draw,
    "Gain": _gain, "Do": _do, "May": _may, "IfYouDid": _if_you_did, "ChooseOne": _choose_one,
    "EachOtherPlayer": _each("Each other player"), "EachPlayer": _each("Each player (you first)"),
    "DiscardDownTo": _discard_down, "TrashSelf": _trash_self, "PlayActionMultiple": _throne,
    "SetUpLater": _later, "NextTurn": _next_turn(False), "NowAndNextTurn": _next_turn(True),
    "ReduceCosts": _reduce_costs, "PutOnTavern": lambda e, d, card: [_line(d, "Put this on your Tavern mat", e)],
    "ChooseFromHand": lambda e, d, card: [_line(d, _choose_from_hand(e), e)], "TrashForCost": _trash_for_cost,
}
# "+x Coffers" (Guilds; app/engine/mechanisms/coffers.py): the card's own words, "Coffers" in the singular too
_PHRASES["PlusCoffers"] = lambda e, d, card: [_line(d, f"+{e.n} Coffers", e)]


def _generic(effect: Any, depth: int, card: str | None) -> list[Line]:
    """An effect class this module has no phrase for yet: its docstring and its plain fields, no reprs."""
    doc = _doc(type(effect)) or re.sub(r"(?<!^)(?=[A-Z])", " ", type(effect).__name__).lower()
    parts, nested = [], []
    if dataclasses.is_dataclass(effect):
        for f in dataclasses.fields(effect):
            v = getattr(effect, f.name)
            if f.name in ("cite", "store", "prompt"):
                continue
            if _is_effect(v):
                nested.append(v)
            elif isinstance(v, (int, str)) and not isinstance(v, bool) and v != "":
                parts.append(f"{f.name.replace('_', ' ')} {v}")
    out = [_line(depth, _cap(doc) + (f" ({', '.join(parts)})" if parts else ""), effect)]
    for e in nested:
        out += words(e, depth + 1, card)
    return out


def _is_effect(v: Any) -> bool:
    try:
        from app.engine.core.effects import Effect
    except ImportError:  # pragma: no cover
        return False
    return isinstance(v, Effect)


# ------------------------------------------------------------------ a whole definition
_HOOK_WORDS = {"when_gain": ("gain", "When you gain this"), "when_buy": ("buy", "When you buy this"),
               "when_trash": ("trash", "When you trash this"), "when_discard": ("discard", "When you discard this")}


def _ability(card: str, fn: Any, heading: str, *patterns: str) -> str:
    text = fn_words(fn, card) or ""
    if getattr(fn, "__name__", "") == "<lambda>" or text.startswith("As printed"):
        printed = _printed_sentence(card, *patterns) if patterns else None
        if printed:
            return printed
    if text.lower().startswith(heading.lower()):
        return _cap(text)
    return f"{heading}: {_low(text)}" if text else heading


def definition_lines(d: Any, current: bool = True) -> list[Line]:
    """One definition's lines: play, VP, own-card abilities, Reactions, while-in-play abilities.

    The printed text (card facts) is the current printing's, so only the
    ``current`` version may borrow its sentences; other versions say only
    what their own code and docstrings say.
    """
    card = d.name if current else None
    lines = words(d.play, 0, card)
    if d.vp is not None:
        if isinstance(d.vp, int):
            lines.append(_line(0, f"Worth {d.vp} VP"))
        else:
            lines.append(_line(0, _cap(fn_words(d.vp, card, r"Worth [^.]*", r"[^.]*\bVP\b[^.]*") or "Worth VP")))
    for trig, fn in d.hooks.items():
        verb, heading = _HOOK_WORDS.get(trig, (trig, trig.replace("_", " ")))
        lines.append(_line(0, _ability(card, fn, heading, rf"When you {verb} this[^.]*")))
    for trig, reaction in d.reactions.items():
        fn = getattr(reaction, "react", reaction)
        doc = _doc(fn) if getattr(fn, "__name__", "") != "<lambda>" else None
        printed = _printed(card).split("-----") if card else []
        text = doc or (printed[1].strip().replace("\n", " ") if len(printed) > 1 else None) \
            or f"reacts ({trig.replace('_', ' ')})"
        lines.append(_line(0, f"Reaction: {_low(text)}" if not text.startswith("Reaction") else text))
    for trig, fn in d.while_in_play.items():
        lines.append(_line(0, _ability(card, fn, "While this is in play", r"While (?:this is|you have this) in play[^.]*",
                                       r"[^.]*while (?:this is|you have this) in play[^.]*")))
    lines += _reserve_lines(d.name)
    if not lines and d.setup is not None:        # a pile with only a setup rule (a split pile, Castles, Knights)
        lines.append(_line(0, _cap(_doc(d.setup) or "Special setup when this pile is in the Supply")))
    if not lines and _is_landmark(d.name):
        # a Landmark's abilities are installed by its mechanism (landmarks.py), which does what the card says:
        # the printed text for the current printing, the version's own words for a previous one
        said = _printed(card) if card else _landmark_says(d)
        lines += [_line(0, part.strip().replace("\n", " ")) for part in said.split("-----") if part.strip()]
    for x in lines:
        x.pop("if_you_did", None)
    return lines


def _is_landmark(card: str) -> bool:
    from app.corpus.card_facts import facts_for
    f = facts_for(card)
    return f is not None and "Landmark" in f.types


def _landmark_says(d: Any) -> str:
    try:
        from app.engine.mechanisms.landmarks import LANDMARKS
    except ImportError:  # pragma: no cover
        return ""
    lm = LANDMARKS.get(d.name, {}).get(d.version)
    return lm.says if lm is not None else ""


def _reserve_lines(name: str) -> list[Line]:
    """A Reserve card's calling window (reserve.py keeps them by card name, outside the definition)."""
    try:
        from app.engine.mechanisms.reserve import WINDOWS
    except ImportError:  # pragma: no cover
        return []
    w = WINDOWS.get(name)
    if w is None:
        return []
    verb = "you may call this from your Tavern mat" if w.calls else "you may discard this from your Tavern mat"
    return [_line(0, f"{_cap(w.what.split(',')[0])}, {verb}" + (f" ({w.what.split(', ', 1)[1]})"
                                                              if ", " in w.what else ""), w)]


def definition_words(card_name: str) -> list[dict[str, Any]]:
    """Every version of a card's executable definition in words; empty when it has none."""
    try:
        from app.engine.core.registry import _DEFS, definition
        from app.engine.core.registry import versions as _versions
    except ImportError:
        return []
    out = []
    for v in _versions(card_name):
        d = _DEFS.get(card_name, {}).get(v)
        if d is None:
            continue
        out.append({"version": v or "current", "note": d.note,
                    "is_default": definition(None, card_name) is d,
                    "lines": definition_lines(d, current=definition(None, card_name) is d)})
    return out
