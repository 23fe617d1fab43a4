"""Game state: card instances, players' zones, the Supply, the trash and the turn.

Card facts (cost, types) are never restated here: a ``Card`` is an instance id
plus a name, and its facts come from ``app.corpus.card_facts``. Every move of a
card bumps its ``stamp``, and so does covering a card on top of a deck; an ability
that remembers ``(card, zone, stamp)`` can tell whether the card was moved (or
covered) since, which is the "lose track" rule (§ III).
"""
from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Callable

from app.corpus.card_facts import CardFacts, facts_for
from app.engine.core.errors import EngineError, EngineLimitError
from app.engine.core import deadline

# Zone names a scenario may refer to; 'deck' is ordered top to bottom.
PLAYER_ZONES = ("hand", "deck", "discard", "in_play", "set_aside", "revealed")
GLOBAL_ZONES = ("trash", "supply")


@lru_cache(maxsize=None)
def card_facts(name: str) -> CardFacts:
    f = facts_for(name)
    if f is None:
        raise EngineError(f"no card named {name!r} in the card facts (dominion-setup)")
    return f


@dataclass(eq=False)
class Card:
    id: int
    name: str
    owner: int | None = None      # player index; None in Supply / trash
    zone: str = "supply"
    stamp: int = 0
    set_aside_by: int | None = None   # source card id when set aside
    game: Any = field(default=None, repr=False)   # the Game it belongs to: its costs can change (costs.py)
    pile: str | None = None   # its pile when that pile mixes card names (Ruins, Knights, Prizes: mixed_piles.py, prizes.py)
    # its own name while it "is" another card until it leaves play (pre-2019 Band of Misfits 3: "it will have
    # the card's cost, name, types and abilities for all purposes"; WHILE THIS IS IN PLAY § VI); see play_as.py
    printed: str | None = None

    @property
    def facts(self) -> CardFacts:
        return card_facts(self.name)

    @property
    def cost(self) -> int:
        """The coin cost now, for all purposes: printed, changed by its game's cost modifiers (costs.py)."""
        if self.game is not None:
            from app.engine.core.costs import cost_of
            return cost_of(self.game, self)
        return self.facts.cost_coins

    def is_type(self, t: str) -> bool:
        if t in self.facts.types:
            return True
        changes = getattr(self.game, "type_changes", None)
        if changes and any(change(self, t) for change in changes):
            # types a rule adds while it is in force, to every card it names (Capitalism: during its holder's
            # turns, Actions with +$ amounts in their text are also Treasures)
            return True
        # types a game adds to a card for the whole game (Charlatan: Curses are also Treasures)
        extra = getattr(self.game, "extra_types", {}).get(self.name, ()) if self.game is not None else ()
        if callable(extra):
            # types that depend on which card it is, e.g. on its owner: pre-2019 Inheritance, "Your Estates
            # have the ... types of the card" (Your Estate token, pre-2019 version, 1-2)
            return extra(self, t)
        return t in extra

    def __repr__(self) -> str:
        return f"{self.name}#{self.id}"


@dataclass(frozen=True)
class Ref:
    """Where an ability expects a card to be (the "lose track" rule)."""

    card: Card
    zone: str
    stamp: int

    def valid(self) -> bool:
        if self.card.zone != self.zone:
            return False
        # Per the 2019 errata, cards in a discard pile are never lost track of.
        return self.zone == "discard" or self.card.stamp == self.stamp


@dataclass
class Player:
    index: int
    name: str
    deck: list[Card] = field(default_factory=list)       # index 0 = top
    hand: list[Card] = field(default_factory=list)
    discard: list[Card] = field(default_factory=list)    # last = top
    in_play: list[Card] = field(default_factory=list)
    set_aside: list[Card] = field(default_factory=list)  # each card remembers its source
    revealed: list[Card] = field(default_factory=list)   # taken from the deck while revealed / looked at
    mats: dict[str, list[Card]] = field(default_factory=dict)
    turns: int = 0
    vp_tokens: int = 0
    tokens: dict[str, int] = field(default_factory=dict)   # counters on mats, e.g. 'Pirate Ship' coin tokens (mats.py)

    def zone(self, name: str) -> list[Card]:
        if name.startswith("mat:"):
            return self.mats.setdefault(name[4:], [])
        return getattr(self, name)

    def all_cards(self) -> list[Card]:
        cards = self.deck + self.hand + self.discard + self.in_play + self.set_aside + self.revealed
        for m in self.mats.values():
            cards += m
        return cards


@dataclass
class LaterAbility:
    """An ability set up for later (Merchant's first Silver, a Duration's next turn).

    ``source`` keeps a Duration card (and the throne-room that played it) in
    play during Clean-up while the ability is still pending (§ IV Duration cards).
    """

    owner: int
    trigger: str                        # 'after_play', 'start_of_turn', 'when_gain', ...
    label: str
    run: Callable[..., Any]             # run(game, event) -> None
    source: Card | None = None
    condition: Callable[..., bool] | None = None
    until: str = "end_of_turn"          # 'end_of_turn' | 'used' (fires once, e.g. next turn) | 'next_time' (the next
    #                                     time this turn: used up when it triggers, else ends with the turn)
    citation: list[dict] = field(default_factory=list)
    # 'next_turn': an ongoing ability ending when the owner's next turn starts (turns.py);
    # 'game': for the rest of the game (Supply-pile tokens, mats.py)
    anyone: bool = False                # also triggers on other players' events (Monkey, Corsair, Embargo tokens)
    # The player doing the event resolves it, for timing ("the player actually doing it is the one who
    # resolves the ability": Blockade's and Embargo's Curse, Corsair's trashing; Ordering several players'
    # concurrent abilities, § III), so they order it among their own abilities (Blockade 7).
    by_actor: bool = False


@dataclass
class Turn:
    player: int
    phase: str = "action"      # 'start' | 'action' | 'buy' | 'buy2' | 'cleanup' | 'over'
    actions: int = 1
    buys: int = 1
    coins: int = 0
    potions: int = 0           # Potions in the money pool (potions.py, POTIONS § IV)
    played: Counter = field(default_factory=Counter)   # plays of each card name this turn
    gained: list[Card] = field(default_factory=list)
    gained_in_buy: list[Card] = field(default_factory=list)   # gained during the Buy phase (Treasury)
    bought: list[Card] = field(default_factory=list)   # cards gained by buying them (Hoard 2022, ongoing.py)
    extra: bool = False        # an extra turn (Outpost): not counted for the tie-breaker (§ II Game end)
    cleanup_draw: int = 5      # cards drawn in Clean-up (Outpost: 3)
    played_refs: list = field(default_factory=list)   # where each card played this turn was put into play (Scepter)


class Game:
    """Players in turn order, Supply, trash, the current turn, seeded randomness and a step limit."""

    def __init__(self, seed: int = 0, step_limit: int = 5000):
        self.play_depth = 0                  # plays nested inside plays now (activities.MAX_PLAY_DEPTH)
        self.players: list[Player] = []
        self.supply: dict[str, list[Card]] = {}
        self.trash: list[Card] = []
        self.rng = random.Random(seed)
        self.steps = 0
        self.step_limit = step_limit
        self.turn = Turn(player=0)
        self.later: list[LaterAbility] = []
        self.played_by: dict[int, list[Card]] = {}     # card id -> throne-rooms that played it
        self.left_by: dict[int, list[Card]] = {}       # card id -> cards that played it while leaving it (§ VI)
        self.versions: dict[str, str] = {}             # card name -> chosen version
        self.over = False
        self.scores: dict[str, int] = {}
        self.winners: list[str] = []
        self._next_id = 1
        self.log = None      # narrate.Log, set by the runner
        self.decider = None  # decisions.Decider
        self.extra_turns: list[int] = []               # players owed an extra turn after this one (turns.py)
        # a round of turns after the game would have ended (Fleet): {'turns': [player index, ...] still to come,
        # 'label', 'cite', 'reason'}; None while the game goes on as usual (activities.end_turn)
        self.final_round: dict | None = None
        self.last_turn: dict[int, Turn] = {}           # each player's last completed turn (Smugglers)
        self.previous_turn: Turn | None = None         # the turn before the current one (consecutive turns)
        self.pile_tokens: dict[str, Counter] = {}      # Supply pile -> tokens on it (mats.py)
        self.extra_types: dict[str, set[str]] = {}    # card name -> types added for this game (Charlatan)
        # fn(card, type) -> whether a rule in force now adds that type to the card (Capitalism, by its text)
        self.type_changes: list[Callable[[Card, str], bool]] = []
        self.cost_modifiers: list = []                 # costs.CostModifier: cost changes in effect (costs.py)
        self.non_supply: dict[str, list[Card]] = {}    # piles outside the Supply (Traveller upgrades; travellers.py)

    # ---- construction -------------------------------------------------
    def new_card(self, name: str, owner: int | None, zone: str, pile: str | None = None) -> Card:
        """A card of this game; ``pile`` when it belongs to a pile of other names (Ruins, Knights, Prizes)."""
        card_facts(name)  # fail early on unknown names
        c = Card(self._next_id, name, owner, zone, game=self, pile=pile)
        self._next_id += 1
        return c

    def add_player(self, name: str) -> Player:
        p = Player(len(self.players), name)
        self.players.append(p)
        return p

    def put(self, player: Player, zone: str, names: list[str]) -> None:
        lst = player.zone(zone)
        for n in names:
            lst.append(self.new_card(n, player.index, zone))

    def set_pile(self, name: str, count: int) -> None:
        self.supply[name] = [self.new_card(name, None, "supply") for _ in range(count)]

    # ---- lookups --------------------------------------------------------
    @property
    def current(self) -> Player:
        return self.players[self.turn.player]

    def player(self, name: str) -> Player:
        for p in self.players:
            if p.name.lower() == name.lower():
                return p
        raise EngineError(f"no player named {name!r}")

    def in_turn_order(self, start: int | None = None) -> list[Player]:
        """Players starting with ``start`` (default: the current player), going left."""
        s = self.turn.player if start is None else start
        n = len(self.players)
        return [self.players[(s + i) % n] for i in range(n)]

    def others(self, player: Player) -> list[Player]:
        return self.in_turn_order(player.index)[1:]

    def zone_list(self, card: Card) -> list[Card]:
        if card.zone == "trash":
            return self.trash
        if card.zone == "supply":
            return self.supply[card.pile or card.name]
        if card.zone == "non_supply":        # its own name's pile, or a pile of differently named cards (Prizes)
            return self.non_supply[card.pile or card.name]
        return self.players[card.owner].zone(card.zone)

    def empty_piles(self) -> list[str]:
        return [n for n, pile in self.supply.items() if not pile]

    # ---- the one way a card moves ----------------------------------------
    def move(self, card: Card, zone: str, owner: int | None = None, top: bool = True) -> None:
        """Move a card; ``top`` means on top (deck: index 0, piles: the end)."""
        self.tick()
        src = self.zone_list(card)
        for i, c in enumerate(src):
            if c is card:
                del src[i]
                break
        else:
            raise EngineError(f"{card.name} is not in {card.zone}")
        if owner is not None:
            card.owner = owner
        if zone in ("trash", "supply", "non_supply"):
            card.owner = None if zone == "trash" else None
        if card.printed is not None and zone != "in_play":
            # leaving play, it is its own card again (Band of Misfits pre-2019 3, 5, 6)
            card.name, card.printed = card.printed, None
        card.zone = zone
        card.stamp += 1
        if zone != "set_aside":
            card.set_aside_by = None
        dest = self.zone_list(card)
        if zone == "deck":
            if top and dest:
                # "An ability loses track of a card that is on top of your deck and gets covered up"
                # (lose-track rule, § III, Example 4): covering it ends every reference to it.
                dest[0].stamp += 1
            dest.insert(0 if top else len(dest), card)
        else:
            dest.append(card)

    def tick(self) -> None:
        self.steps += 1
        if self.steps > self.step_limit:
            raise EngineLimitError(f"step limit of {self.step_limit} engine steps reached (a loop?)")
        if not self.steps & (deadline.CHECK_EVERY - 1):
            deadline.check()      # a replay's wall-clock deadline, if one is set (core/deadline.py)

    def ref(self, card: Card) -> Ref:
        return Ref(card, card.zone, card.stamp)
