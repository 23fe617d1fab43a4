"""The sandbox (``/try``): a scenario built up one action or answer at a time, its state in the link.

The state is a plain scenario dict (players, supply, steps with answers), so
it downloads as a scenario file unchanged and the engine replays it from the
start on every request; replay is deterministic, so that is exact, and it
avoids any server-side session. The link carries the state compressed and
base64url-encoded, which makes "share" just "copy the URL".
"""
from __future__ import annotations

import base64
import binascii
import json
import re
import zlib
from typing import Any, Mapping

from app.web import replay as rp

MAX_TOKEN = 8000
MAX_STEPS = 200
BASICS = ["Copper", "Silver", "Gold", "Estate", "Duchy", "Province", "Curse"]
PLAYER_NAMES = ("Alice", "Bob")


class SandboxError(Exception):
    """Bad sandbox input: names the field (or step) and what was expected."""


def defined_cards() -> list[str]:
    try:
        from app.engine.registry import defined_cards as registry_defined_cards
    except ImportError:  # pragma: no cover
        return []
    return registry_defined_cards()


def default_form() -> dict[str, str]:
    return {"kingdom": "Throne Room, Feast, Village, Smithy, Militia, Moat",
            "p1_name": "Alice", "p1_hand": "Throne Room, Feast, Copper, Copper, Estate",
            "p1_deck": "Silver*5",
            "p2_name": "Bob", "p2_hand": "Moat, Copper*4", "p2_deck": ""}


def _names(text: str, field: str) -> list[str]:
    known = {n.lower(): n for n in defined_cards()}
    out = []
    for part in [p.strip() for p in re.split(r"[,\n]", text or "") if p.strip()]:
        name, _, count = part.partition("*")
        name = name.strip()
        real = known.get(name.lower())
        if real is None:
            import difflib
            near = difflib.get_close_matches(name, list(known.values()), n=3, cutoff=0.6)
            hint = f"; did you mean {', '.join(near)}?" if near else ""
            raise SandboxError(f"{field}: {name!r} has no executable definition{hint}")
        if count.strip():
            if not count.strip().isdigit() or not 1 <= int(count) <= 60:
                raise SandboxError(f"{field}: expected NAME*COUNT with a count from 1 to 60, found {part!r}")
            out.append(f"{real}*{int(count)}")
        else:
            out.append(real)
    return out


def from_setup_form(form: Mapping[str, str]) -> dict[str, Any]:
    kingdom = _names(form.get("kingdom", ""), "kingdom")
    players = []
    for i in (1, 2):
        name = (form.get(f"p{i}_name") or PLAYER_NAMES[i - 1]).strip()[:20]
        if not re.fullmatch(r"[A-Za-z][A-Za-z0-9 _-]*", name):
            raise SandboxError(f"player {i} name: use letters, digits, spaces, '-' or '_', found {name!r}")
        players.append({"name": name, "hand": _names(form.get(f"p{i}_hand", ""), f"{name}'s hand"),
                        "deck": _names(form.get(f"p{i}_deck", ""), f"{name}'s deck")})
    if players[0]["name"] == players[1]["name"]:
        raise SandboxError("the two players need different names")
    supply: dict[str, int] = {}
    defined = set(defined_cards())
    for b in BASICS:
        if b in defined:
            supply[b] = {"Copper": 46, "Silver": 40, "Gold": 30, "Curse": 10}.get(b, 8)
    for k in kingdom:
        supply.setdefault(k.split("*")[0], 10)
    return {"title": "Sandbox game", "rulings": [{"section": "Your turn"}], "players": players,
            "supply": supply, "steps": []}


def encode(state: dict[str, Any]) -> str:
    raw = json.dumps(state, separators=(",", ":"), ensure_ascii=False).encode()
    return base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode().rstrip("=")


def decode(token: str) -> dict[str, Any]:
    if not token or len(token) > MAX_TOKEN:
        raise SandboxError("the sandbox link is missing or too long; start a new game at /try")
    try:
        raw = zlib.decompressobj().decompress(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)), 200_000)
        state = json.loads(raw)
    except (binascii.Error, zlib.error, ValueError, UnicodeDecodeError):
        raise SandboxError("the sandbox link is damaged (it does not decode); start a new game at /try") from None
    if not isinstance(state, dict) or not isinstance(state.get("steps"), list) or \
            not isinstance(state.get("players"), list):
        raise SandboxError("the sandbox link does not hold a game (expected players and steps)")
    return state


def apply(state: dict[str, Any], form: Mapping[str, Any]) -> dict[str, Any]:
    """One user action: play/buy/play_treasures/end_turn, answer the open question, or undo."""
    op = form.get("op", "")
    steps = state["steps"]
    if op == "undo":
        if steps and steps[-1].get("answers"):
            steps[-1]["answers"].pop()
        elif steps:
            steps.pop()
        return state
    if len(steps) >= MAX_STEPS:
        raise SandboxError(f"a sandbox game is limited to {MAX_STEPS} steps; download it to continue elsewhere")
    if op in ("play", "buy"):
        card = (form.get("card") or "").strip()
        if not card:
            raise SandboxError(f"{op}: choose a card")
        steps.append({op: card, "answers": []})
    elif op in ("play_treasures", "end_turn"):
        steps.append({op: True, "answers": []})
    elif op == "answer":
        if not steps:
            raise SandboxError("there is no question to answer yet")
        kind = form.get("kind", "cards")
        if kind == "yesno":
            answer: Any = form.get("answer", "")
        elif kind == "choice":
            answer = form.get("answer", "")
        elif kind == "order":
            answer = [x.strip() for x in (form.get("answer") or "").split(",") if x.strip()]
        else:
            getlist = getattr(form, "getlist", None)
            answer = getlist("answer") if getlist else form.get("answer", [])
            answer = [a for a in answer if a]
        steps[-1].setdefault("answers", []).append(answer)
    else:
        raise SandboxError(f"unknown sandbox operation {op!r}")
    return state


def _scenario(state: dict[str, Any]) -> dict[str, Any]:
    """The state as a scenario file: step dicts without empty answer lists."""
    steps = []
    for st in state["steps"]:
        st = dict(st)
        if not st.get("answers"):
            st.pop("answers", None)
        if set(st) == {"end_turn"} or set(st) == {"play_treasures"}:
            steps.append(next(iter(st)))
        else:
            steps.append(st)
    return {k: v for k, v in {**state, "steps": steps}.items()}


def to_yaml(state: dict[str, Any]) -> str:
    return rp.dump_yaml(_scenario(state))


def run(state: dict[str, Any]) -> tuple[rp.Outcome | None, str | None]:
    """Replay the state; an input problem comes back as a message, not an exception."""
    try:
        scen = rp.load_text(to_yaml(state), name="sandbox")
    except rp.BadScenario as exc:
        return None, str(exc)
    return rp.replay(scen), None
