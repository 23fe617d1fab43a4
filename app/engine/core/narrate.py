"""The narrated log: one entry per event, each citing the rule or ruling it follows.

A citation is ``{"card": "Feast", "ruling": 1}`` (Card Reference entry and
ruling number) or ``{"section": "Game end"}`` (a rules section title, with an
optional ``paragraph``). Section titles are looked up in the Complete Rules so
the log can say which chapter (§ III) they are in, like the document does.

A line is written as a judge would say it at the table (issue #35): money with its $
(``money``, ``pool``), a card's place in a player's words (``where``, ``zone_words``; never
``card.zone``), "plays X again, with Y" rather than "with Y again". ``plain_words.leaks`` says
what a line leaks, and tests/test_plain_words.py applies it to every scenario in the corpus.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

@lru_cache(maxsize=1)
def _section_chapters() -> dict[str, str]:
    """Heading title (lower-cased) -> roman numeral of its chapter, from the rules parser.

    The engine cites rules sections by their printed titles; the one parser of
    the Complete Rules (app.corpus.rules_parser) knows every heading, Common
    effect and alias, so the log's "§ III" agrees with the store and the pages.
    """
    from app.corpus.model import ParsedCorpus
    from app.corpus.rules_parser import parse_rules
    from app.corpus.sources import load_document

    parsed = ParsedCorpus()
    parse_rules(load_document("rules"), parsed)
    out: dict[str, str] = {}
    for section in parsed.sections:
        if section.chapter:
            for title in [section.title, *section.aliases]:
                out.setdefault(title.strip().lower(), section.chapter)
    return out


def section_chapter(title: str) -> str | None:
    """The chapter a section title is printed in, or None if no heading has that title."""
    try:
        return _section_chapters().get(title.strip().lower())
    except Exception:  # the document is missing: citations still print, without chapter
        return None


def render_citation(c: dict) -> str:
    """As the document prints them: "Feast 1", "Hoard (pre-2022) 4", "Game end, § II"."""
    if "card" in c:
        name = f"{c['card']} ({c['version']})" if c.get("version") else c["card"]
        n = c.get("ruling")
        return f"{name} {n}" if n is not None else name
    title = c.get("section", "?")
    short = c.get("short") or title
    ch = c.get("chapter") or section_chapter(title)     # a title printed in two chapters names its own
    para = f" {c['paragraph']}" if c.get("paragraph") else ""
    return f"{short}{para}, § {ch}" if ch else f"{short}{para}"


def money(n: int) -> str:
    """An amount of $ as the cards print it: "$3" (a log line never shows a bare number for money)."""
    return f"${n}"


def pool(turn) -> str:
    """The money pool after a change, as a log line's bracket says it: "money pool: $3"."""
    return f"money pool: {money(turn.coins)}"


_ZONE_WORDS = {"supply": "in the Supply", "trash": "in the trash", "in_play": "in play", "set_aside": "set aside",
               "revealed": "revealed"}
_OWNED = {"hand": "in {} hand", "deck": "on {} deck", "discard": "in {} discard pile"}


def zone_words(zone: str) -> str:
    """A zone as a destination a player names: "set aside", "the trash", "the Tavern mat", "Alice's hand"."""
    if zone.startswith("mat:"):
        return f"the {zone[4:]} mat"
    return {"supply": "the Supply", "trash": "the trash", "in_play": "play", "set_aside": "set aside",
            "non_supply": "its pile", "hand": "the hand", "deck": "the deck", "discard": "the discard pile"
            }.get(zone, zone.replace("_", " "))


# A phase as a player names it (pages and refusals): "buy2" (after the first buy) is still the Buy phase.
PHASE_WORDS = {"start": "start of turn", "action": "Action phase", "buy": "Buy phase", "buy2": "Buy phase",
               "cleanup": "Clean-up phase", "night": "Night phase", "over": "game over"}


def phase_words(phase: str) -> str:
    return PHASE_WORDS.get(phase, f"{phase.replace('_', ' ')} phase")


def where(card, game=None) -> str:
    """Where a card is, in a player's words: "in the trash", "on Alice's Tavern mat", "set aside".

    Cards and mechanisms say this instead of interpolating ``card.zone`` (an engine name such as
    "mat:Tavern" or "set_aside", which must never reach a log line; tests/test_plain_words.py).
    """
    zone = card.zone
    who = "their"
    if game is not None and card.owner is not None and 0 <= card.owner < len(game.players):
        who = game.players[card.owner].name + "'s"
    if zone.startswith("mat:"):
        return f"on {who} {zone[4:]} mat"
    if zone == "non_supply":
        return f"back in the {card.pile or card.name} pile"
    if zone in _OWNED:
        return _OWNED[zone].format(who)
    return _ZONE_WORDS.get(zone, "in " + zone.replace("_", " "))


@dataclass
class Entry:
    step: int | None
    text: str
    citations: list[dict] = field(default_factory=list)

    def render(self) -> str:
        cites = "; ".join(render_citation(c) for c in self.citations)
        prefix = f"[{self.step}] " if self.step is not None else "[setup] "
        return prefix + self.text + (f" ({cites})" if cites else "")

    def as_dict(self) -> dict:
        return {"step": self.step, "text": self.text, "citations": self.citations,
                "cited": [render_citation(c) for c in self.citations]}


@dataclass
class Log:
    entries: list[Entry] = field(default_factory=list)
    step: int | None = None

    def add(self, text: str, *citations: dict) -> None:
        self.entries.append(Entry(self.step, text, [c for c in citations if c]))

    def lines(self) -> list[str]:
        return [e.render() for e in self.entries]


def R(card: str, n: int | None = None, version: str | None = None) -> dict:
    """Citation of a Card Reference ruling; ``version`` (e.g. 'pre-2022') cites a Previous versions entry."""
    c: dict = {"card": card} if n is None else {"card": card, "ruling": n}
    if version:
        c["version"] = version
    return c


# Citations used by the engine itself (shared rules, not card-specific).
def sec(title: str, short: str | None = None, paragraph: int | None = None, chapter: str | None = None) -> dict:
    """A rules section by its printed title; ``chapter`` when the title is printed in more than one chapter
    ("Boons and Hexes" is a heading of § I, the components, and of § IV, the rules)."""
    d: dict = {"section": title}
    if chapter:
        d["chapter"] = chapter
    if short:
        d["short"] = short
    if paragraph:
        d["paragraph"] = paragraph
    return d


LOSE_TRACK = sec("The “lose track” rule", "lose-track rule")
MOVING_FROM_DECK = sec("Moving cards from your deck")
GAINING = sec("Gaining a card")
DISCARDING = sec("Discarding cards")
DO_AS_MUCH = sec("Do as much as you can")
IF_YOU_DID = sec("Effects contingent on other effects")
MULTIPLE = sec("Playing a card multiple times")
REACTIONS = sec("Resolving Reactions and timing")
CONCURRENT = sec("Timing of concurrent abilities or effects")
GROUPING = sec("Grouping of effects")
GAME_END = sec("Game end")
CLEANUP = sec("Clean-up phase")
PLAYING = sec("Playing a card")
BUY_PHASE = sec("Buy phase")
ACTION_PHASE = sec("Action phase")
LATER = sec("Setting up a later ability")
IMMEDIATE = sec("Effects are immediate")
DURATION = sec("Duration cards")

# Rules sections that cards and mechanisms of several sets cite: named once here, so every set cites the
# same heading the same way (the index links a citation to its section by this title).
TRIGGERED = sec("Triggered ability")
DIG = sec("“Dig for cards”", "Dig for cards")
REVEALING = sec("Revealing or looking at cards")
REACTION_TO_ATTACK = sec("Reaction to Attack")
SEVERAL_OPTIONS = sec("Several options")
CARD_COSTS = sec("Card costs")
SPECIAL_SETUP = sec("Special setup")
EXCHANGING = sec("Exchanging")
CARDS_IN_PLAY = sec("Cards you have in play")
LEAVING = sec("Play a card while leaving it")
REMODEL = sec("“Remodel” card")
DO_X_TO = sec("“Do X to” / “Do X for”")
WHILE_IN_PLAY = sec("While this is in play")
RESERVE = sec("Reserve cards")
PLAYS_ITSELF = sec("Reaction that plays itself")
NAME_A_CARD = sec("Name a card")
GAIN_TO = sec("Gain to your hand/deck")
NOT_YOUR_TURN = sec("Effects when it's not your turn")
EACH_OTHER = sec("Each player/Each other player")
DISCARD_DOWN = sec("Discard down to x cards in hand")
COST_REDUCTION = sec("Cost reduction")
UNTIL_NEXT_TURN = sec("Attack until your next turn")
