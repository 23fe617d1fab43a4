"""The sandbox (``/try``): a scenario built up one action or answer at a time, its state in the link.

The state is a plain scenario dict (players, supply, versions, current player,
rulings, steps with answers), so it downloads as a scenario file unchanged and
the engine replays it from the start on every request; replay is
deterministic, so that is exact, and it avoids any server-side session. The
link carries the state zlib-compressed and base64url-encoded, which makes
"share" just "copy the URL". A scenario file can come back in (paste or
upload) and is continued the same way.
"""
from __future__ import annotations

import base64
import binascii
import difflib
import json
import re
import zlib
from typing import Any, Callable, Mapping

import yaml

from app.engine.scenario.cardnames import version_refusal
from app.engine.scenario.setup import supply_sizes
from app.web import limits
from app.web import replay as rp
from app.web import sandbox_moves, sandbox_names

MAX_TOKEN = 8000
MAX_STEPS = 200
MIN_PLAYERS, MAX_PLAYERS = 1, 6
ZONES = ("hand", "deck", "discard", "in_play")
ZONE_LABELS = {"hand": "Hand", "deck": "Deck (top first)", "discard": "Discard", "in_play": "In play"}
# Starting pile sizes the sandbox offers; every one can be changed in the "Pile sizes" field.
PLAYER_NAMES = ("Alice", "Bob", "Carol", "Dave", "Eve", "Frank")
PLACEHOLDER_RULING = {"section": "Your turn"}
_NAME_RE = re.compile(r"[A-Za-z][A-Za-z0-9 _-]*")

RulingCheck = Callable[[str, int], "str | None"]   # (card, number) -> problem or None


class SandboxError(Exception):
    """Bad sandbox input: names the field (or step) and what was expected."""


class SetupErrors(SandboxError):
    """Every problem of one setup form at once, by form field, so each is shown beside its field."""

    def __init__(self, errors: dict[str, str]):
        self.errors = errors
        super().__init__("; ".join(errors.values()))


Resolve = Callable[[str], "tuple[str | None, str | None]"]   # typed name -> (card, problem)


def defined_cards() -> list[str]:
    return sandbox_names.defined_cards()


def card_versions() -> dict[str, list[str]]:
    """Cards the engine registers in more than one version, with each version's note (for the picker)."""
    try:
        from app.engine.core.registry import versions
    except ImportError:  # pragma: no cover
        return {}
    out: dict[str, list[str]] = {}
    for name in defined_cards():
        vs = versions(name)
        if len(vs) > 1:
            out[name] = vs
    return out


def version_options() -> list[dict[str, Any]]:
    """One picker per multi-version card: its versions, their notes, and which is the default."""
    from app.engine.core.registry import _DEFAULT, _DEFS

    out = []
    for name, vs in card_versions().items():
        out.append({"card": name, "default": _DEFAULT.get(name, ""),
                    "versions": [{"id": v, "note": _DEFS[name][v].note or (f"version {v}" if v else "current")}
                                 for v in vs]})
    return out


def default_form() -> dict[str, str]:
    """A new table: two players and nothing else, so no unrelated example stands in the way (issue #35)."""
    return {"players": "2", "kingdom": "", "p1_name": "Alice", "p1_hand": "", "p1_deck": "",
            "p2_name": "Bob", "p2_hand": "", "p2_deck": "", "current": "1", "piles": "", "rulings": ""}


def _pile_and_card(name: str) -> tuple[str, str]:
    """(Supply pile, card for a hand) of a card a search recognised.

    A pile of differently named cards (Knights) is bought as its pile but played as one of its cards
    (Sir Martin): a table suggested for "Knights" puts a Knight in the hand, and one for Sir Martin
    puts the Knights pile in the Kingdom (§ I Special setup), so the table holds the card asked about.
    """
    from app.corpus.card_facts import facts_for
    from app.engine.mechanisms.piles import MIXED

    f = facts_for(name)
    if f is None:
        return name, name
    defined = defined_cards()        # loads the definitions, whose mechanisms say which cards make up a mixed pile
    pile = facts_for(MIXED.get(f.name, ""))
    if pile is not None and pile.purpose == "Kingdom Pile":              # one of its cards (Sir Martin)
        return pile.name, f.name
    members = [n for n in defined if MIXED.get(n) == f.name]
    if members and f.purpose == "Kingdom Pile":                          # the pile itself (Knights)
        return f.name, members[0]
    return f.name, f.name


def player_count(form: Mapping[str, Any]) -> int:
    raw = str(form.get("players") or "2").strip()
    n = limits.whole_number(raw, MIN_PLAYERS, MAX_PLAYERS)
    if n is None:
        raise SandboxError(f"players: expected a number from {MIN_PLAYERS} to {MAX_PLAYERS}, "
                           f"found {limits.excerpt(raw)}")
    return n


def resize_form(form: Mapping[str, Any], op: str) -> dict[str, str]:
    """The setup form again with one player more or fewer (the no-JavaScript add/remove buttons)."""
    out = {k: v for k, v in form.items() if isinstance(v, str)}
    n = player_count(form)
    if op == "add_player":
        if n >= MAX_PLAYERS:
            raise SandboxError(f"players: at most {MAX_PLAYERS} players")
        n += 1
        out.setdefault(f"p{n}_name", PLAYER_NAMES[n - 1])
        if not out.get(f"p{n}_name"):
            out[f"p{n}_name"] = PLAYER_NAMES[n - 1]
    elif op == "remove_player":
        if n <= MIN_PLAYERS:
            raise SandboxError(f"players: at least {MIN_PLAYERS} player")
        for z in ("name", "tavern", "coffers") + ZONES:
            out.pop(f"p{n}_{z}", None)
        n -= 1
    out["players"] = str(n)
    if limits.whole_number(out.get("current", "1"), 1, n) is None:
        out["current"] = "1"
    return out


def _names(text: str, field: str, resolve: Resolve | None = None) -> list[str]:
    """``Throne Room, Copper*4``: card names (any form search accepts) with optional counts.

    Every problem of the field is reported at once, one after the other.
    """
    resolve = resolve or sandbox_names.CardResolver().resolve
    out, problems = [], []
    for part in [p.strip() for p in re.split(r"[,\n]", text or "") if p.strip()]:
        name, _, count = part.partition("*")
        real, problem = resolve(name.strip())
        if problem:
            problems.append(problem)
            continue
        if count.strip():
            n = limits.whole_number(count, 1, 60)
            if n is None:
                problems.append(f"expected NAME*COUNT with a count from 1 to 60, found {limits.excerpt(part)}")
                continue
            out.append(f"{real}*{n}")
        else:
            out.append(real)
    if problems:
        raise SandboxError(f"{field}: " + "; ".join(problems))
    return out


def _piles(text: str, resolve: Resolve | None = None) -> dict[str, int]:
    """``Curse=3, Province=2``: pile sizes that matter for the ruling (0 = an empty Supply pile)."""
    out: dict[str, int] = {}
    for part in [p.strip() for p in re.split(r"[,\n;]", text or "") if p.strip()]:
        name, sep, count = part.partition("=")
        if not sep:
            name, sep, count = part.partition(":")
        n = limits.whole_number(count, 0, 200) if sep else None
        if n is None:
            raise SandboxError(f"pile sizes: expected NAME=COUNT (0 to 200), found {limits.excerpt(part)}")
        real = _names(name, "pile sizes", resolve)
        out[real[0].split("*")[0]] = n
    return out


def parse_rulings(text: str, check: RulingCheck | None = None) -> list[dict[str, Any]]:
    """``Moat 3, Militia 1``: the Card Reference rulings the game explores (card + ruling number).

    ``check`` (the store, when the web app has one) confirms the ruling exists,
    so a downloaded file never cites a ruling the Card Reference lacks.
    """
    from app.corpus.card_facts import facts_for

    out: list[dict[str, Any]] = []
    for part in [p.strip() for p in re.split(r"[,\n;]", text or "") if p.strip()]:
        m = re.fullmatch(r"(.+?)\s*(?:#|\s)\s*(\d{1,3})", part)
        name, number = (m.group(1), int(m.group(2))) if m else (part, None)
        facts = facts_for(name.strip())
        if facts is None:
            known = [n for n in defined_cards()]
            near = difflib.get_close_matches(name.strip(), known, n=3, cutoff=0.6)
            hint = f"; did you mean {', '.join(near)}?" if near else ""
            raise SandboxError(f"rulings: {name.strip()!r} is not a card name (write e.g. 'Moat 3'){hint}")
        if number is not None and check is not None:
            problem = check(facts.name, number)
            if problem:
                raise SandboxError(f"rulings: {problem}")
        out.append({"card": facts.name, "ruling": number} if number is not None else {"card": facts.name})
    return out


def rulings_text(state: Mapping[str, Any]) -> str:
    """The state's rulings as the form shows them (empty for the placeholder)."""
    parts = []
    for r in state.get("rulings") or []:
        if isinstance(r, dict) and r.get("card"):
            parts.append(f"{r['card']} {r['ruling']}" if r.get("ruling") is not None else str(r["card"]))
    return ", ".join(parts)


def from_setup_form(form: Mapping[str, Any], check: RulingCheck | None = None,
                    resolve: Resolve | None = None) -> dict[str, Any]:
    """The setup form as sandbox state; every problem found is raised at once (``SetupErrors``)."""
    errors: dict[str, str] = {}

    def field(key: str, fn: Callable[[], Any], default: Any) -> Any:
        try:
            return fn()
        except SandboxError as exc:
            errors[key] = str(exc)
            return default

    n = player_count(form)
    kingdom = field("kingdom", lambda: _names(form.get("kingdom", ""), "kingdom", resolve), [])
    players = []
    for i in range(1, n + 1):
        name = (form.get(f"p{i}_name") or PLAYER_NAMES[i - 1]).strip()[:20]
        if not _NAME_RE.fullmatch(name):
            errors[f"p{i}_name"] = f"player {i} name: use letters, digits, spaces, '-' or '_', found {name!r}"
        player: dict[str, Any] = {"name": name}
        for z in ZONES:
            label = f"{name}'s {ZONE_LABELS[z].lower()}"

            def zone_cards(key: str = f"p{i}_{z}", label: str = label) -> list[str]:
                cards = _names(form.get(key, ""), label, resolve)
                events = [c for c in cards if _is_event(c.split("*")[0])]
                if events:
                    raise SandboxError(f"{label}: {events[0]} is an Event, not a card; list it with the Kingdom cards")
                return cards
            cards = field(f"p{i}_{z}", zone_cards, [])
            if cards or z in ("hand", "deck"):
                player[z] = cards
        tavern = field(f"p{i}_tavern", lambda key=f"p{i}_tavern", label=f"{name}'s Tavern mat":
                       _names(form.get(key, ""), label, resolve), [])
        if tavern:
            player["mats"] = {TAVERN: tavern}
        coffers = field(f"p{i}_coffers", lambda i=i, name=name: _coffers(form.get(f"p{i}_coffers"), name), None)
        if coffers is not None:
            player["coffers"] = coffers
        players.append(player)
    names = [p["name"] for p in players]
    dup = sorted({x for x in names if names.count(x) > 1})
    if dup:
        errors.setdefault(f"p{names.index(dup[0], names.index(dup[0]) + 1) + 1}_name",
                          f"players need different names; {', '.join(dup)} is used twice")
    defined = set(defined_cards())
    kingdom_names = [k.split("*")[0] for k in kingdom]
    events = [k for k in kingdom_names if _is_event(k)]      # Events lie beside the Kingdom (events.py)
    landmarks = [k for k in kingdom_names if _is_event(k, "Landmark")]    # so do Landmarks (landmarks.py)
    projects = [k for k in kingdom_names if _is_event(k, "Project")]      # and Projects (projects.py)
    beside = set(events) | set(landmarks) | set(projects)
    # a card of a split pile or of Knights/Castles is in the Kingdom as its pile (Catapult -> Catapult/Rocks)
    kingdom_names = list(dict.fromkeys(_pile_and_card(k)[0] for k in kingdom_names if k not in beside))
    if form.get("supply") == "exact":     # a scenario's own Supply: only its piles, plus any Kingdom card added
        supply = {k: 10 for k in kingdom_names}
    else:
        sizes = supply_sizes(len(players), kingdom_names,
                             colonies=bool({"Platinum", "Colony"} & set(kingdom_names)))
        supply = {name: n for name, n in sizes.items() if name in defined}
    supply.update(field("piles", lambda: _piles(form.get("piles", ""), resolve), {}))
    versions: dict[str, str] = {}
    multi = card_versions()
    for key, value in form.items():
        if key.startswith("version:") and value:
            card = key[len("version:"):]
            if card not in multi or value not in multi[card]:
                errors["versions"] = "versions: " + version_refusal(card, value, multi.get(card, []))
            else:
                versions[card] = value
    cur = str(form.get("current") or "1").strip()
    if limits.whole_number(cur, 1, n) is None:
        errors["current"] = f"whose turn: expected a player number from 1 to {n}, found {limits.excerpt(cur)}"
        cur = "1"
    shelters = field("shelters", lambda: _shelters(form.get("shelters"), kingdom_names), False)
    heirlooms = field("heirlooms", lambda: _heirlooms(form.get("heirlooms"), kingdom_names), False)
    rulings = field("rulings", lambda: parse_rulings(form.get("rulings", ""), check), [])
    carried = field("carry", lambda: _carried(form), {})
    if errors:
        raise SetupErrors(errors)
    rulings += carried.get("sections", [])
    state: dict[str, Any] = {"title": (form.get("title") or "Sandbox game").strip()[:120] or "Sandbox game",
                             "rulings": rulings or [dict(PLACEHOLDER_RULING)]}
    if versions:
        state["versions"] = versions
    for p, extra in zip(players, carried.get("players", [])):
        if "mats" in extra and "mats" in p:        # the form's Tavern mat beside the file's other mats
            p["mats"] = {**extra["mats"], **p["mats"]}
        p.update({k: v for k, v in extra.items() if k not in p})
    state["players"] = players
    if int(cur) != 1:
        state["current"] = names[int(cur) - 1]
    state["supply"] = supply
    if events:
        state["events"] = events
    if landmarks:
        state["landmarks"] = landmarks
    if projects:
        state["projects"] = projects
    bane = _bane_for(kingdom_names, defined)
    if bane:
        state["bane"] = bane
    if shelters:
        state["shelters"] = True
    if heirlooms:
        state["heirlooms"] = True
    state.update(carried.get("extra", {}))
    state["steps"] = carried.get("steps", []) if form.get("replay_steps") else []
    return state


# Scenario keys the setup form has no field for; "Open in sandbox" carries them through unchanged,
# with every game-wide setup key a mechanism registers (bane, ruins, knights, prizes, ...) except
# those the form has a field for (events are listed with the Kingdom, shelters is a choice).
_CARRY_TOP = ("turn", "seed", "step_limit")
_FORM_PLAYER_KEYS = {"name", "coffers", *ZONES}
_FORM_GAME_KEYS = {"events", "landmarks", "projects", "shelters", "heirlooms"}
TAVERN = "Tavern"
MAX_COFFERS = 1000
SHELTERS_CHOICES = {"": "As the rules say: when the last Kingdom card listed is from Dark Ages",
                    "yes": "Yes: each player's 3 starting Estates are Shelters", "no": "No"}


def _carry_keys() -> tuple[str, ...]:
    from app.engine.scenario.extensions import SETUP_KEYS

    defined_cards()          # every mechanism registered
    return _CARRY_TOP + tuple(name for scope, name in SETUP_KEYS if scope == "game" and name not in _FORM_GAME_KEYS)


def _coffers(raw: Any, name: str) -> int | None:
    text = str(raw or "").strip()
    if not text:
        return None
    if len(text) > 4 or not text.isdigit() or int(text) > MAX_COFFERS:
        raise SandboxError(f"{name}'s Coffers: expected a number from 0 to {MAX_COFFERS}, found {text[:10]!r}")
    return int(text)


HEIRLOOMS_CHOICES = {"": "As the rules say: each Kingdom card with an Heirloom gives each player its Heirloom "
                         "instead of a Copper (their first: hand, then deck, then discard)",
                     "no": "No: keep the Coppers as listed"}


def _heirlooms(choice: Any, kingdom: list[str]) -> bool:
    """Heirlooms (§ I Special setup, Nocturne): as the rules say, unless the player asks to keep the Coppers."""
    choice = str(choice or "")
    if choice not in HEIRLOOMS_CHOICES:
        raise SandboxError(f"heirlooms: choose one of the offered options, found {choice[:20]!r}")
    if choice == "no":
        return False
    from app.engine.mechanisms.heirlooms import heirloom_of
    return any(heirloom_of(k) for k in kingdom)


def _shelters(choice: Any, kingdom: list[str]) -> bool:
    """Shelters (§ I Special setup, Dark Ages): the player's choice, or the rule's own way of deciding."""
    choice = str(choice or "")
    if choice not in SHELTERS_CHOICES:
        raise SandboxError(f"shelters: choose one of the offered options, found {choice[:20]!r}")
    if choice:
        return choice == "yes"
    from app.engine.mechanisms.shelters import use_shelters
    return use_shelters(kingdom)


def _carried(form: Mapping[str, Any]) -> dict[str, Any]:
    raw = form.get("carry") or ""
    if not raw:
        return {}
    try:
        carry = limits.parse_json(raw)
        limits.check_tree(carry)
    except (ValueError, limits.LimitExceeded):
        raise SandboxError("the scenario's hidden setup is damaged; open the scenario again") from None
    if not isinstance(carry, dict):
        raise SandboxError("the scenario's hidden setup is damaged; open the scenario again")
    steps = carry.get("steps") or []
    if not isinstance(steps, list) or len(steps) > MAX_STEPS or not all(isinstance(x, dict) for x in steps):
        raise SandboxError(f"the scenario's moves: expected at most {MAX_STEPS} steps")
    return {"steps": steps, "extra": {k: v for k, v in (carry.get("extra") or {}).items() if k in _carry_keys()},
            "players": [p for p in carry.get("players") or [] if isinstance(p, dict)],
            "sections": [r for r in carry.get("sections") or [] if isinstance(r, dict) and "section" in r]}


def _carried_player(p: Mapping[str, Any]) -> dict[str, Any]:
    """A file's player keys the form has no field for (their other mats, tokens, ...)."""
    out = {k: v for k, v in p.items() if k not in _FORM_PLAYER_KEYS}
    if isinstance(out.get("mats"), dict):
        out["mats"] = {m: c for m, c in out["mats"].items() if m != TAVERN}
        if not out["mats"]:
            del out["mats"]
    return out


def _zone_text(cards: Any) -> str:
    """``[Copper, Copper, "Estate*5"]`` -> "Copper*2, Estate*5" (the form's own notation)."""
    out: list[list[Any]] = []
    for c in cards or []:
        name, _, count = str(c).partition("*")
        k = limits.whole_number(count, 1, 10_000) or 1
        if out and out[-1][0] == name.strip():
            out[-1][1] += k
        else:
            out.append([name.strip(), k])
    return ", ".join(f"{c}*{k}" if k > 1 else c for c, k in out)


def form_from_scenario(raw: Mapping[str, Any]) -> dict[str, str]:
    """A scenario file as the setup form (to change one thing and replay); its moves ride along."""
    from app.corpus.card_facts import facts_for

    players = [p for p in raw.get("players") or [] if isinstance(p, dict)][:MAX_PLAYERS]
    supply = raw.get("supply") or {}
    form: dict[str, str] = {"players": str(len(players) or 2), "title": str(raw.get("title") or "")[:120],
                            "supply": "exact", "replay_steps": "1"}
    events = [str(e) for e in (raw.get("events") or []) + (raw.get("landmarks") or []) + (raw.get("projects") or [])]
    form["kingdom"] = ", ".join([n for n in supply if (f := facts_for(str(n))) is None or f.purpose != "Basic"]
                                + events)
    form["shelters"] = "yes" if raw.get("shelters") is True else "no"
    form["heirlooms"] = "" if raw.get("heirlooms") is True else "no"    # a file states its players' cards
    form["piles"] = ", ".join(f"{n}={c}" for n, c in supply.items())
    for i, p in enumerate(players, 1):
        form[f"p{i}_name"] = str(p.get("name") or PLAYER_NAMES[i - 1])
        for z in ZONES:
            form[f"p{i}_{z}"] = _zone_text(p.get(z))
        form[f"p{i}_tavern"] = _zone_text((p.get("mats") or {}).get(TAVERN) if isinstance(p.get("mats"), dict)
                                          else None)
        if isinstance(p.get("coffers"), int):
            form[f"p{i}_coffers"] = str(p["coffers"])
    names = [form[f"p{i}_name"] for i in range(1, len(players) + 1)]
    form["current"] = str(names.index(raw["current"]) + 1) if raw.get("current") in names else "1"
    for card, v in (raw.get("versions") or {}).items():
        form[f"version:{card}"] = str(v)
    cited = [r for r in raw.get("rulings") or [] if isinstance(r, dict)]
    form["rulings"] = ", ".join(f"{r['card']} {r['ruling']}" if r.get("ruling") is not None else str(r["card"])
                                for r in cited if r.get("card"))
    carry = {"steps": _state_steps(raw.get("steps") or []),
             "extra": {k: raw[k] for k in _carry_keys() if k in raw},
             "players": [_carried_player(p) for p in players],
             "sections": [r for r in cited if "section" in r]}
    form["carry"] = json.dumps(carry, ensure_ascii=False, separators=(",", ":"))
    return form


def dispute_form(cards: list[str]) -> dict[str, str]:
    """A table for a dispute between ``cards``: each where the question puts it.

    An Attack and any card that plays another card (Throne Room) go to the
    player whose turn it is, with the Action they play beside them; a Reaction
    goes to the opponent's hand, to answer the Attack; every other card to the
    current player's hand. Hands are filled up with Copper to five cards.
    """
    from app.corpus.card_facts import facts_for

    mine, theirs, kingdom = [], [], []
    for name in cards[:6]:
        f = facts_for(name)
        if f is None or f.purpose == "Basic":
            continue
        pile, card = _pile_and_card(f.name)
        if pile not in kingdom:
            kingdom.append(pile)
        types = set(f.types)
        has_attack = any("Attack" in (facts_for(c).types if facts_for(c) else ()) for c in cards if c != name)
        if "Reaction" in types and (has_attack or not mine) and "Attack" not in types:
            theirs.append(card)
        else:
            mine.append(card)

    def hand(cards_: list[str]) -> str:
        return ", ".join(cards_ + ([f"Copper*{5 - len(cards_)}"] if len(cards_) < 5 else []))

    form = default_form()
    form.update({"kingdom": ", ".join(kingdom), "p1_hand": hand(mine), "p1_deck": "Silver*3, Copper*4, Estate*3",
                 "p2_hand": hand(theirs), "p2_deck": "Copper*4, Estate*3, Silver*3", "rulings": "",
                 "prefilled": "1"})
    return form


def _is_event(name: str, kind: str = "Event") -> bool:
    """Whether ``name`` is an Event (or another Landscape ``kind``, a Landmark): listed with the Kingdom, set
    out beside it."""
    from app.corpus.card_facts import facts_for
    f = facts_for(name)
    return f is not None and kind in f.types


def _bane_for(kingdom: list[str], defined: set[str]) -> str | None:
    """Young Witch in the Kingdom: the sandbox adds a Bane pile itself (§ I Special setup, mechanisms/bane.py).

    The first defined Kingdom card costing $2 or $3 that is not already one of the Kingdom piles, so the
    same form always gives the same game; a user who wants another Bane downloads the file and edits ``bane``.
    """
    if "Young Witch" not in kingdom:
        return None
    try:
        from app.engine.mechanisms.bane import candidates
    except ImportError:  # pragma: no cover
        return None
    return next((n for n in candidates() if n in defined and n not in kingdom), None)


def set_rulings(state: dict[str, Any], text: str, check: RulingCheck | None = None) -> dict[str, Any]:
    state["rulings"] = parse_rulings(text, check) or [dict(PLACEHOLDER_RULING)]
    return state


def from_scenario_text(text: str) -> dict[str, Any]:
    """A pasted or uploaded scenario file as sandbox state, to continue it.

    The engine loads it first (so a bad file is reported with its line); the
    top-level ``expect``/``expect_error`` are dropped, since they describe the
    end of the file's game, not of the one being continued.
    """
    if not (text or "").strip():
        raise SandboxError("scenario file: paste a scenario or choose a file")
    try:
        rp.load_text(text, name="pasted scenario")
    except rp.BadScenario as exc:
        raise SandboxError(f"scenario file: {exc}") from None
    raw = yaml.safe_load(text)
    state = {k: v for k, v in raw.items() if k not in ("expect", "expect_error")}
    steps = _state_steps(raw.get("steps") or [])
    state["steps"] = steps
    problem = state_problem(state)
    if problem:
        raise SandboxError(f"scenario file: {problem}")
    if len(steps) > MAX_STEPS:
        raise SandboxError(f"scenario file: a sandbox game is limited to {MAX_STEPS} steps")
    # round-trip through JSON so the state is plain (dates or other YAML types become an error here)
    try:
        json.dumps(state)
    except (TypeError, ValueError):
        raise SandboxError("scenario file: holds values other than text, numbers, lists and mappings") from None
    return state


def _state_steps(raw_steps: list[Any]) -> list[dict[str, Any]]:
    """A file's steps as the sandbox keeps them: one dict each, its answers a list (expectations dropped)."""
    steps = []
    for st in raw_steps:
        if isinstance(st, str):
            steps.append({st: True, "answers": []})
        elif isinstance(st, dict):
            st = {k: v for k, v in st.items() if k != "expect"}
            st["answers"] = list(st.get("answers") or [])
            steps.append(st)
    return steps


def encode(state: dict[str, Any]) -> str:
    raw = json.dumps(state, separators=(",", ":"), ensure_ascii=False).encode()
    token = base64.urlsafe_b64encode(zlib.compress(raw, 9)).decode().rstrip("=")
    if len(token) > MAX_TOKEN:
        raise SandboxError("this game no longer fits in a link; download the scenario file to keep it")
    return token


def decode(token: str) -> dict[str, Any]:
    if not token or len(token) > MAX_TOKEN:
        raise SandboxError("the sandbox link is missing or too long; start a new game at /try")
    try:
        raw = zlib.decompressobj().decompress(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)), 200_000)
        state = limits.parse_json(raw)
    except (binascii.Error, zlib.error, ValueError, UnicodeDecodeError, limits.LimitExceeded):
        # RecursionError: a link that decompresses to deeply nested JSON is damaged, not a server fault.
        raise SandboxError("the sandbox link is damaged (it does not decode); start a new game at /try") from None
    try:
        limits.check_tree(state)
    except limits.LimitExceeded as exc:
        raise SandboxError(f"the sandbox link is damaged: {exc.message}; start a new game at /try") from None
    problem = state_problem(state)
    if problem:
        raise SandboxError(f"the sandbox link does not hold a game ({problem}); start a new game at /try")
    return state


# The shape of a sandbox state where the web code itself relies on it (the rest, such as
# card names and counts, is the scenario loader's to check, with its line numbers).
_STATE_TYPES: dict[str, tuple[type, str]] = {
    "title": (str, "text"), "rulings": (list, "a list"), "players": (list, "a list"),
    "supply": (dict, "a mapping of pile to count"), "versions": (dict, "a mapping of card to version"),
    "current": (str, "a player's name"), "steps": (list, "a list"),
}


def state_problem(state: Any) -> str | None:
    """What is wrong with a decoded sandbox state's shape, naming the key; None when the shape is right."""
    if not isinstance(state, dict):
        return "expected a mapping with players and steps"
    for key in ("players", "steps"):
        if key not in state:
            return f"{key}: missing"
    for key, (kind, what) in _STATE_TYPES.items():
        if key in state and not isinstance(state[key], kind):
            return f"{key}: expected {what}, found {type(state[key]).__name__}"
    for i, r in enumerate(state.get("rulings") or [], 1):
        if not isinstance(r, dict):
            return f"rulings item {i}: expected {{card, ruling}} or {{section}}, found {type(r).__name__}"
    for i, p in enumerate(state["players"], 1):
        if not isinstance(p, dict) or not isinstance(p.get("name"), str):
            return f"players item {i}: expected a mapping with a name"
    for i, st in enumerate(state["steps"], 1):
        if not isinstance(st, dict):
            return f"step {i}: expected a mapping, found {type(st).__name__}"
        if "answers" in st and not isinstance(st["answers"], list):
            return f"step {i} answers: expected a list, found {type(st['answers']).__name__}"
    return None


def apply(state: dict[str, Any], form: Mapping[str, Any]) -> dict[str, Any]:
    """One user action: play/buy/play_treasures/end_turn, a registered move (call, spend_coffers, buy_overpay,
    buy_event, ...), answer the open question, or undo."""
    op = form.get("op", "")
    steps = state["steps"]
    if op == "undo":
        if steps and steps[-1].get("answers"):
            steps[-1]["answers"].pop()
        elif steps:
            steps.pop()
        return state
    if len(steps) >= MAX_STEPS and op != "answer":
        raise SandboxError(f"a sandbox game is limited to {MAX_STEPS} steps; download it to continue elsewhere")
    if op in sandbox_moves.step_names():      # every move a mechanism registers (sandbox_moves.py)
        try:
            steps.append(sandbox_moves.step(op, form, _legal_now(state)))
        except sandbox_moves.MoveError as exc:
            raise SandboxError(str(exc)) from None
    elif op in ("play", "buy"):
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
        if kind in ("yesno", "choice"):
            answer: Any = form.get("answer", "")
        elif kind == "order":
            answer = [x.strip() for x in (form.get("answer") or "").split(",") if x.strip()]
        else:
            getlist = getattr(form, "getlist", None)
            answer = getlist("answer") if getlist else form.get("answer", [])
            answer = [a for a in ([answer] if isinstance(answer, str) else answer) if a and a != "none"]
            if not answer:
                answer = "none"
        steps[-1].setdefault("answers", []).append(answer)
    else:
        raise SandboxError(f"unknown sandbox operation {op!r}")
    return state


def _legal_now(state: dict[str, Any]) -> dict[str, Any] | None:
    """What the current player may do before the move (None: a question is open or the last move failed)."""
    outcome, problem = run(state)
    if problem is not None or outcome is None or outcome.question is not None:
        return None
    return outcome.legal


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
    return {**state, "steps": steps}


def to_yaml(state: dict[str, Any]) -> str:
    return rp.dump_yaml(_scenario(state))


def run(state: dict[str, Any]) -> tuple[rp.Outcome | None, str | None]:
    """Replay the state; an input problem comes back as a message, not an exception."""
    try:
        return rp.replay(rp.load_text(to_yaml(state), name="sandbox")), None
    except rp.BadScenario as exc:
        return None, str(exc)


def store_check(store: Any) -> RulingCheck:
    """A ruling check against the built store's Card Reference (numbered rulings of the current entry).

    ``store`` may be a zero-argument callable, so a page that never checks a
    ruling never opens the store (and a missing store only skips the check).
    """
    from app.corpus.model import slugify

    def check(card: str, number: int) -> str | None:
        try:
            db = store() if callable(store) else store
            rows = db.rows("select number from rulings where card=? and version is null and kind='ruling'",
                              (slugify(card),))
        except Exception:  # noqa: BLE001 - no store: the format check alone applies
            return None
        have = sorted({r["number"] for r in rows if r["number"] is not None})
        if number not in have:
            listed = f"its rulings are 1-{have[-1]}" if have else "it has no numbered rulings"
            return f"{card} has no ruling {number} in the Card Reference ({listed})"
        return None
    return check
