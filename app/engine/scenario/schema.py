"""The scenario format, described once as a JSON Schema (Draft 2020-12).

The same schema validates every file on load (``validate``), is published at
``GET /api/scenario-schema.json`` for editors (a YAML language server completes
keys and shows each description from it), and generates the reference table of
docs/scenario-format.md (``scenario.reference``). The static part below is the
core format; ``schema()`` composes it with what mechanisms register in
``extensions.py`` (step kinds, setup keys, expect keys), so a set's own step is
validated, documented and completed like the built-in ones.

Each property carries ``description`` (what it means, for the docs and editors),
``x-example`` (a line of YAML for the docs' table) and, where a wrong value needs
more than "wrong type", ``x-expected`` (what a person should write, in the error).
Integers are Python ``int`` only: ``1.0e+9``, ``.inf`` and ``true`` are not counts.
"""
from __future__ import annotations

import copy
from functools import lru_cache
from typing import Any

import jsonschema
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError, best_match

from app.engine.core.errors import ECHO_CHARS, ScenarioError, excerpt
from app.engine.core.state import PLAYER_ZONES
from app.engine.core import hooks
from app.engine.scenario import extensions as ext
from app.engine.scenario.source import line_at

SCHEMA_ID = "https://rulings.example/api/scenario-schema.json"
MAX_CARDS = 5_000        # every card a scenario creates or names; a six-player game with Colonies has about 500
MAX_STEP_LIMIT = 1_000_000
MAX_STEPS = 1_000
PHASES = ["action", "buy", "buy2"]          # a turn a scenario starts in (Turn.phase); buy2: after the first buy
EXPECT_PHASES = ["start", "action", "buy", "buy2", "cleanup", "over"]

# "Copper", "Copper*7" (seven copies), "Throne Room#first" (one copy, named for later checks).
CARD_PATTERN = r"^\s*[^*#\s][^*#]*?\s*(\*\s*[0-9]+|#[A-Za-z0-9_-]{1,24})?\s*$"   # counts: MAX_CARDS in all
CARD = {"type": "string", "pattern": CARD_PATTERN, "maxLength": 80,
        "x-expected": "a card name, NAME*COUNT (e.g. \"Copper*7\") or NAME#label (e.g. \"Throne Room#first\")"}
CARDS = {"type": "array", "items": {"$ref": "#/$defs/card"}, "maxItems": 1000,
         "x-expected": "a list of card names, e.g. [Copper, \"Estate*2\"]"}
CARD_OR_CARDS = {"anyOf": [{"$ref": "#/$defs/card"}, {"$ref": "#/$defs/cards"}],
                 "x-expected": "a card name or a list of card names"}
# pile sizes: at most MAX_CARDS each, and all cards together bounded by cardnames.count_cards
COUNT = {"type": "integer", "minimum": 0, "maximum": MAX_CARDS,
         "x-expected": f"a whole number from 0 to {MAX_CARDS}"}
# What every number and text of the format is held to when its own schema says nothing (a key a
# mechanism registers without a bound): ``bounded`` adds these when the schema is composed.
DEFAULT_MAXIMUM = MAX_CARDS
DEFAULT_MAX_LENGTH = 2000
SMALL = {"type": "integer", "minimum": 0, "maximum": 10_000, "x-expected": "a whole number from 0 to 10000"}
TEXT = {"type": "string", "maxLength": 2000}
TEXTS = {"anyOf": [TEXT, {"type": "array", "items": TEXT, "maxItems": 200}],
         "x-expected": "a text or a list of texts"}
ZONE_EXPECT = {"anyOf": [{"$ref": "#/$defs/cards"}, {"type": "integer", "minimum": 0}],
               "x-expected": "a list of card names, or how many cards"}
ANSWER_PLAIN = {"anyOf": [{"type": ["string", "integer", "boolean", "null"]},
                          {"type": "array", "items": {"type": ["string", "integer"]}, "maxItems": 500}]}
# an answer that names its question: it must land on a question whose "player: prompt" contains the text
ANSWER_NAMED = {"type": "object", "required": ["question", "answer"], "additionalProperties": False,
                "properties": {"question": {"type": "string", "minLength": 1, "maxLength": 200},
                               "answer": ANSWER_PLAIN},
                "x-expected": "{question: PART OF THE QUESTION, answer: ANSWER}"}
ANSWER_ONE = {"anyOf": [ANSWER_PLAIN, ANSWER_NAMED]}
ANSWERS = {"anyOf": [{"type": "array", "items": ANSWER_ONE, "maxItems": 500}, ANSWER_ONE],
           "x-expected": "a list of answers, one per question, e.g. [Silver, yes, [Gold, Copper], "
                         "{question: trash, answer: Estate}]",
           "description": "answers to the step's questions, in the order they are asked (see Answers)"}


ZONE_WORDS = {"hand": "their hand", "deck": "their deck (top first)", "discard": "their discard pile",
              "in_play": "their cards in play", "set_aside": "their set-aside cards",
              "revealed": "their revealed cards (taken from the deck, not yet placed)"}


def _p(schema: dict, description: str, example: str) -> dict:
    return {**schema, "description": description, "x-example": example}


def _player_expect() -> dict:
    props = {z: _p({"$ref": "#/$defs/zoneExpect"}, f"exactly {ZONE_WORDS[z]}"
                   + ("" if z == "deck" else " (any order)") + ", or how many cards",
                   f"{z}: [Silver, \"Copper*4\"]") for z in PLAYER_ZONES}
    props.update({
        "vp": _p({"type": "integer"}, "their victory points now (cards and VP tokens)", "vp: 3"),
        "turns": _p(SMALL, "turns they have taken (extra turns not counted)", "turns: 2"),
        "mats": _p({"type": "object", "additionalProperties": {"$ref": "#/$defs/zoneExpect"}},
                   "cards on each of their mats", "mats: {Island: [Province]}"),
        "tokens": _p({"type": "object", "additionalProperties": {"type": "integer"}},
                     "counters on their mats", "tokens: {Pirate Ship: 2}"),
        "contains": _p({"type": "object", "properties": {z: {"$ref": "#/$defs/cards"} for z in PLAYER_ZONES},
                        "additionalProperties": False},
                       "these cards are among the zone's (other cards may be there too)",
                       "contains: {hand: [Gold]}"),
        "discard_order": _p({"$ref": "#/$defs/cards"}, "the discard pile exactly, in order, top card first",
                            "discard_order: [Province, Copper]"),
        "top": _p({"$ref": "#/$defs/cards"}, "the top cards of the deck, top first (as many as listed)",
                  "top: [Smithy, Border Village]"),
        "gained_this_turn": _p({"$ref": "#/$defs/cards"},
                               "exactly the cards they gained this turn (their own turn only; any order)",
                               "gained_this_turn: [Silver, Curse]"),
    })
    return {"type": "object", "properties": props, "additionalProperties": False}


def _game_expect() -> dict:
    props = {
        "trash": _p({"$ref": "#/$defs/zoneExpect"}, "exactly the cards in the trash (any order), or how many",
                    "trash: [Feast]"),
        "supply": _p({"type": "object", "additionalProperties": COUNT}, "Supply pile sizes", "supply: {Duchy: 7}"),
        "actions": _p({"type": "integer"}, "Actions left", "actions: 0"),
        "buys": _p({"type": "integer"}, "Buys left", "buys: 1"),
        "coins": _p({"type": "integer"}, "the money pool", "coins: 2"),
        "potions": _p({"type": "integer"}, "Potions in the money pool", "potions: 0"),
        "phase": _p({"enum": EXPECT_PHASES}, "the phase of the current turn", "phase: buy"),
        "current": _p({"type": "string"}, "whose turn it is", "current: Bob"),
        "game_over": _p({"type": "boolean"}, "whether the game has ended", "game_over: false"),
        "winners": _p({"type": "array", "items": {"type": "string"}}, "who won (any order)", "winners: [Alice]"),
        "scores": _p({"type": "object", "additionalProperties": {"type": "integer"}}, "final scores",
                     "scores: {Alice: 12, Bob: 9}"),
        "log": _p(TEXTS, "narrated lines that must appear (each a part of one line)", "log: [\"not trashed again\"]"),
        "not_in_log": _p(TEXTS, "narrated lines that must NOT appear (no line contains any of these)",
                         "not_in_log: [\"reveals Watchtower\"]"),
        "pile_tokens": _p({"type": "object", "additionalProperties": {"type": "object",
                                                                      "additionalProperties": {"type": "integer"}}},
                          "tokens on Supply piles", "pile_tokens: {Silver: {Embargo: 1}}"),
        "cost": _p({"type": "object", "additionalProperties": {"type": "integer"}},
                   "what a card costs now, cost changes included (coins)", "cost: {Silver: 1}"),
        "piles": _p({"type": "object", "additionalProperties": {"$ref": "#/$defs/cards"}},
                    "the top cards of a Supply or non-Supply pile, top first (as many as listed)",
                    "piles: {Ruins: [Survivors]}"),
        "contains": _p({"type": "object", "properties": {"trash": {"$ref": "#/$defs/cards"}},
                        "additionalProperties": False},
                       "these cards are in the trash (other cards may be there too)", "contains: {trash: [Estate]}"),
        "offered": _p({"type": "array", "maxItems": 100, "items": {
            "type": "object", "required": ["options"], "additionalProperties": False,
            "properties": {"options": {"type": "array", "items": {"type": ["string", "integer"]}, "maxItems": 500},
                           "player": {"type": "string"}, "prompt": {"type": "string"}}}},
            "questions that were asked with exactly these options (any order), optionally to a player and with "
            "a prompt containing a text; in a step's expect: asked during that step",
            "offered: [{player: Bob, options: [\"Cauldron's ability\", \"Blockade: ...\"]}]"),
    }
    return {"type": "object", "properties": props, "additionalProperties": {"$ref": "#/$defs/playerExpect"}}


def _player() -> dict:
    props = {"name": _p({"type": "string", "minLength": 1, "maxLength": 40}, "the player's name", "name: Alice")}
    for z in PLAYER_ZONES:
        props[z] = _p({"$ref": "#/$defs/cards"}, ZONE_WORDS[z], f"{z}: [Copper, \"Estate*2\"]")
    props.update({
        "turns": _p(SMALL, "turns taken so far, counting the current one (tie rule)", "turns: 1"),
        "vp_tokens": _p(SMALL, "VP tokens", "vp_tokens: 0"),
        "mats": _p({"type": "object", "additionalProperties": {"$ref": "#/$defs/cards"}},
                   "cards on their mats (theirs: they score)", "mats: {Native Village: [Gold]}"),
        "tokens": _p({"type": "object", "additionalProperties": SMALL}, "counters on their mats",
                     "tokens: {Pirate Ship: 2}"),
        "played_last_turn": _p({**CARDS, "maxItems": 20},
                               "Duration cards they played on their last turn, still in play: each one's play "
                               "ability is resolved before step 1 (on an empty table), so what it set up is in "
                               "effect (Lighthouse's protection, Haunted Woods' attack, next-turn abilities)",
                               "played_last_turn: [Lighthouse]"),
    })
    return {"type": "object", "properties": props, "required": ["name"], "additionalProperties": False}


END_TURN_OPTIONS = {
    "type": "object", "additionalProperties": False,
    "properties": {
        "answers": {"$ref": "#/$defs/answers"},
        "expect": {"$ref": "#/$defs/expect", "description": "checked once the next player's turn has started"},
        "after_cleanup": {"$ref": "#/$defs/expect",
                          "description": "checked after Clean-up and the game-end check, before the next "
                                         "player's turn starts (start-of-turn abilities not yet resolved)"},
    },
}


def _step() -> dict:
    props = {
        "play": _p({"$ref": "#/$defs/cardOrCards"}, "play cards from hand (Actions in the Action phase, Treasures)",
                   "play: Throne Room"),
        "buy": _p({"$ref": "#/$defs/cardOrCards"}, "buy cards, one Buy each", "buy: [Silver, Village]"),
        "play_treasures": _p({"type": ["boolean", "null"]}, "play every Treasure in hand", "play_treasures"),
        "end_turn": _p({"anyOf": [{"type": ["boolean", "null"]}, END_TURN_OPTIONS],
                        "x-expected": "end_turn, or end_turn: {answers: [...], expect: {...}, after_cleanup: {...}}"},
                       "Clean-up, the game-end check, then the next player's turn; optionally with its own "
                       "answers and expectations", "end_turn: {after_cleanup: {Alice: {hand: 5}}}"),
        "answers": _p({"$ref": "#/$defs/answers"}, "answers to the step's questions, in the order they are asked",
                      "answers: [Feast, Duchy, yes]"),
        "expect": _p({"$ref": "#/$defs/expect"}, "checked right after this step", "expect: {trash: [Feast]}"),
        "note": _p(TEXT, "a comment shown with the step", "note: Alice keeps the Gold"),
    }
    return {"type": "object", "properties": props, "additionalProperties": False, "minProperties": 1}


def _static() -> dict:
    top = {
        "title": _p({"type": "string", "minLength": 1, "maxLength": 300}, "what the scenario shows, in a sentence",
                    "title: Throne Room plays Feast twice"),
        "description": _p(TEXT, "a longer explanation", "description: ..."),
        "rulings": _p({"type": "array", "minItems": 1, "maxItems": 50, "items": {"anyOf": [
            {"type": "object", "required": ["card"], "additionalProperties": False,
             "properties": {"card": {"type": "string"}, "ruling": {"type": "integer", "minimum": 1},
                            "version": {"type": "string"}}},
            {"type": "object", "required": ["section"], "additionalProperties": False,
             "properties": {"section": {"type": "string"}, "paragraph": {"type": "integer", "minimum": 1}}}],
            "x-expected": "{card: NAME, ruling: N} or {section: TITLE}"}},
            "the rulings it demonstrates (at least one)", "rulings: [{card: Feast, ruling: 1}]"),
        "versions": _p({"type": "object", "additionalProperties": {"type": ["string", "integer"]}},
                       "which printing of a card (\"1\" = first edition)", "versions: {Throne Room: \"1\"}"),
        "seed": _p({"type": "integer", "minimum": 0, "maximum": 2**53}, "seeds every shuffle", "seed: 0"),
        "step_limit": _p({"type": "integer", "minimum": 1, "maximum": MAX_STEP_LIMIT},
                         "engine steps before the replay stops (a loop)", "step_limit: 5000"),
        "expect_error": _p({"type": "object", "required": ["step", "contains"], "additionalProperties": False,
                            "properties": {"step": {"type": "integer", "minimum": 1},
                                           "contains": {"type": "string", "minLength": 1}}},
                           "that step must be rejected with a message containing the text",
                           "expect_error: {step: 3, contains: \"no Buys left\"}"),
        "players": _p({"type": "array", "minItems": 1, "maxItems": 6, "items": {"$ref": "#/$defs/player"}},
                      "1 to 6 players, in turn order", "players: [{name: Alice, hand: [Copper]}, {name: Bob}]"),
        "current": _p({"type": "string"}, "whose turn it is (default: the first player)", "current: Alice"),
        "turn": _p({"type": "object", "additionalProperties": False, "properties": {
            "phase": {"enum": PHASES, "x-expected": f"one of {', '.join(PHASES)}"},
            "actions": SMALL, "buys": SMALL, "coins": SMALL, "potions": SMALL}},
            "the current turn's pools and phase (default: 1 Action, 1 Buy, $0, Action phase)",
            "turn: {actions: 1, buys: 1, coins: 0, phase: action}"),
        "supply": _p({"type": "object", "additionalProperties": COUNT},
                     "Supply pile sizes (0 = an empty pile)", "supply: {Duchy: 8, Laboratory: 10}"),
        "trash": _p({"$ref": "#/$defs/cards"}, "the cards in the trash at the start", "trash: [Estate, Necropolis]"),
        "piles": _p({"type": "object", "maxProperties": 40, "additionalProperties": {"$ref": "#/$defs/cards"}},
                    "a Supply or non-Supply pile exactly, top card first (after the usual setup; each card must "
                    "belong to that pile)", "piles: {Ruins: [Survivors, Ruined Village], Spoils: [\"Spoils*3\"]}"),
        "steps": _p({"type": "array", "maxItems": MAX_STEPS, "items": {"anyOf": [
            {"enum": ["end_turn", "play_treasures"]}, {"$ref": "#/$defs/step"}],
            "x-expected": "end_turn, play_treasures, or a mapping such as {play: Village, answers: [...]}"}},
            "what happens, one action per step", "steps: [{play: Village}, end_turn]"),
        "expect": _p({"$ref": "#/$defs/expect"}, "checked after the last step", "expect: {trash: [Feast]}"),
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": SCHEMA_ID,
        "title": "Dominion rules scenario",
        "description": "A small table, scripted steps and answers, and the expectations a ruling states "
                       "(docs/scenario-format.md).",
        "type": "object",
        "required": ["title", "rulings", "players", "supply", "steps"],
        "properties": top,
        "additionalProperties": False,
        "$defs": {
            "card": CARD, "cards": CARDS, "cardOrCards": CARD_OR_CARDS, "zoneExpect": ZONE_EXPECT,
            "answers": ANSWERS, "player": _player(), "step": _step(), "expect": _game_expect(),
            "playerExpect": _player_expect(),
        },
    }


def _registered(entry: Any) -> dict:
    return {**copy.deepcopy(entry.schema), "description": entry.doc, "x-example": entry.example,
            "x-registered": True}


def _registered_step(kind: Any) -> dict:
    """A step kind's schema; one whose value names cards is also held to the format's card names and
    counts (``cardOrCards``), whatever schema it registered: no step kind can take a card list unbounded."""
    out = _registered(kind)
    if kind.cards:
        out = {"allOf": [{k: v for k, v in out.items() if k not in ("description", "x-example")},
                         {"$ref": "#/$defs/cardOrCards"}],
               "description": out["description"], "x-example": out["x-example"], "x-registered": True}
    return out


def bounded(node: Any) -> None:
    """Give every integer a ``maximum`` and every free string a ``maxLength`` where the schema has none.

    Why at composition and not in each registration: a key a mechanism adds tomorrow (Debt tokens, an
    answer binding) is then bounded before a value of it is used, by the same schema that validates
    the file, without its author having to remember. Walks iteratively over every subschema.
    """
    stack = [node]
    while stack:
        n = stack.pop()
        if isinstance(n, list):
            stack.extend(n)
            continue
        if not isinstance(n, dict):
            continue
        types = n.get("type")
        types = [types] if isinstance(types, str) else (types or [])
        if "integer" in types or "number" in types:
            n.setdefault("maximum", DEFAULT_MAXIMUM)
            n.setdefault("minimum", -DEFAULT_MAXIMUM)
        if "string" in types and "enum" not in n and "const" not in n:
            n.setdefault("maxLength", DEFAULT_MAX_LENGTH)
        stack.extend(v for k, v in n.items() if isinstance(v, (dict, list)) and k not in ("enum", "const",
                                                                                          "x-example"))


def published_schema() -> dict:
    """``schema()`` once every set's module has registered its keys (GET /api/scenario-schema.json)."""
    from app.engine.core.registry import defined_cards
    defined_cards()
    return schema()


def _key() -> tuple:
    return (tuple(ext.STEP_KINDS), tuple(ext.SETUP_KEYS), tuple(ext.EXPECT_KEYS), tuple(hooks.PHASES))


def schema() -> dict:
    """The whole format: the static schema plus every registered step kind, setup key and expect key."""
    return copy.deepcopy(_composed(_key()))


@lru_cache(maxsize=8)
def _composed(key: tuple) -> dict:
    s = _static()
    defs = s["$defs"]
    # registered entries in name order, so the schema (and the doc generated from it) does not
    # depend on which module happened to be imported first
    for name, kind in sorted(ext.STEP_KINDS.items()):
        defs["step"]["properties"][name] = _registered_step(kind)
    for (scope, name), sk in sorted(ext.SETUP_KEYS.items()):
        target = s["properties"] if scope == "game" else defs["player"]["properties"]
        target[name] = _registered(sk)
    for (scope, name), ek in sorted(ext.EXPECT_KEYS.items()):
        target = defs["expect"]["properties"] if scope == "game" else defs["playerExpect"]["properties"]
        target[name] = _registered(ek)
    # phases a mechanism adds after the Buy phase (the Night phase): a turn may start in one, and be expected in one
    added = [name for name in hooks.PHASES]
    defs["expect"]["properties"]["phase"]["enum"] = EXPECT_PHASES + added
    turn_phase = s["properties"]["turn"]["properties"]["phase"]
    turn_phase["enum"] = PHASES + added
    turn_phase["x-expected"] = f"one of {', '.join(PHASES + added)}"
    bounded(s)
    Draft202012Validator.check_schema(s)
    return s


def _strict_int(checker: Any, instance: Any) -> bool:
    return isinstance(instance, int) and not isinstance(instance, bool)


_Validator = jsonschema.validators.extend(
    Draft202012Validator,
    type_checker=Draft202012Validator.TYPE_CHECKER.redefine("integer", _strict_int))


@lru_cache(maxsize=8)
def _validator(key: tuple) -> Any:
    return _Validator(_composed(key))


def game_expect_keys() -> set[str]:
    """The keys of ``expect`` that are not player names: the built-in checks and the registered game ones."""
    return set(_composed(_key())["$defs"]["expect"]["properties"])


def action_names() -> list[str]:
    """The step keys that are an action (exactly one per step): the built-in ones and the registered kinds."""
    return ["play", "buy", "play_treasures", "end_turn", *ext.STEP_KINDS]


# ------------------------------------------------------------------ validation with file, line and key
def where(path: list) -> str:
    """``players[1].hand[3]``: a path as a person finds it in the file (lists counted from 1)."""
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part + 1}]"
        else:
            out += ("." if out else "") + str(part)
    return out or "scenario"


def _short(value: Any) -> str:
    return excerpt(value)


def _message(err: ValidationError) -> str:
    v = err.validator
    expected = err.schema.get("x-expected") if isinstance(err.schema, dict) else None
    if v == "additionalProperties" and isinstance(err.instance, dict):
        known = sorted(err.schema.get("properties", {}))
        extra = [k for k in err.instance if k not in known]
        if known:
            return f"unknown key {_short(extra[0])}; expected one of {', '.join(known)}" if extra else err.message
    if v == "required":
        return err.message.replace("is a required property", "is missing (required)")
    if v in ("maximum", "minimum", "maxItems", "minItems", "maxLength", "minLength"):
        return f"{_short(err.instance)}: {err.message.split(' is ', 1)[-1] if ' is ' in err.message else err.message}"
    if v == "enum":
        allowed = list(err.validator_value)
        if len(allowed) > 12:       # a long list of names reads worse than what they have in common
            what = expected or (err.schema.get("description") if isinstance(err.schema, dict) else None)
            return (f"expected {what or f'one of {len(allowed)} names'} (the schema lists them), "
                    f"found {_short(err.instance)}")
        return f"expected one of {', '.join(map(str, allowed))}, found {_short(err.instance)}"
    if expected:
        return f"expected {expected}, found {_short(err.instance)}"
    if v == "type":
        return f"expected {err.validator_value if isinstance(err.validator_value, str) else ' or '.join(err.validator_value)}, found {_short(err.instance)}"
    if len(err.message) > 3 * ECHO_CHARS:        # jsonschema's own wording quotes the whole value
        return f"{_short(err.instance)} is not allowed here ({v})"
    return err.message


def _relevance(err: ValidationError) -> tuple:
    # prefer the deepest error (it names the key), and among anyOf branches the one its x-expected describes
    return (len(err.absolute_path), err.validator not in ("anyOf", "oneOf"))


def errors(doc: Any) -> list[ValidationError]:
    """Every schema violation of a document (plain or line-keeping dicts and lists)."""
    return list(_validator(_key()).iter_errors(doc))


def validate(doc: Any, file: str) -> None:
    """Raise a ScenarioError naming the file, the line and the key of the first violation of the schema."""
    errs = errors(doc)
    if not errs:
        return
    # an unknown key usually explains a missing one ("playerz"), so it is reported first; else the first line
    first = min(errs, key=lambda e: (e.validator == "required", line_at(doc, list(e.absolute_path)) or 0))
    err = _deepest(first)
    path = list(err.absolute_path)
    at = path
    if err.validator == "additionalProperties" and isinstance(err.instance, dict):
        known = err.schema.get("properties", {})
        extra = [k for k in err.instance if k not in known]
        at = path + extra[:1]            # the line of the unknown key itself
    raise ScenarioError(file, f"{where(path)}: {_message(err)}", line=line_at(doc, at))


def _informative(err: ValidationError) -> bool:
    """A branch error that says more than "this is the wrong kind of value for this branch"."""
    if err.validator in ("type", "enum", "const"):
        return False
    if err.validator in ("anyOf", "oneOf"):
        return any(_informative(c) for c in err.context)
    return True


def _deepest(err: ValidationError) -> ValidationError:
    """For anyOf (a card or a list of cards), the branch error that explains best, unless the node says it."""
    if err.validator in ("anyOf", "oneOf") and err.context:
        useful = [c for c in err.context if _informative(c)]
        if useful:
            return _deepest(max(useful, key=lambda c: len(c.absolute_path)))
        if isinstance(err.schema, dict) and "x-expected" in err.schema:
            return err
        return _deepest(best_match(err.context))
    return err
