"""The places where a mechanism adds to the core's own steps: registered by the mechanism, called by the core.

Why a module of its own: the core (buying, paying, the game's end) must not know a
mechanism by name, or every new set would edit the core and import circles would
grow (issue #32, "the engine's layout holds"). A mechanism that changes what buying
allows (a Potion in the cost, Debt, "you can't buy this") or what paying for a card
takes registers a function here under its own name; the core calls whatever is
registered, in registration order. Keyed by name, so importing a mechanism again (a
retried load of the card registry) replaces its entry instead of adding a second.

What the scenario format gains (step kinds, setup keys, expect keys) is registered
in ``app.engine.scenario.extensions``; these hooks are the rules' side.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from app.engine.core.state import Card, Game, Player

BuyCheck = Callable[[Game, str, Card], "str | None"]
Payment = Callable[[Game, Card], None]
ScorePart = Callable[[Game, Player], int]

BUY_CHECKS: dict[str, BuyCheck] = {}       # why the current player can't buy from this pile now, or None
EVENT_CHECKS: set[str] = set()             # the checks that forbid buying Events too (holding Debt)
BUY_PAYMENTS: dict[str, Payment] = {}      # what else buying this card takes, after its coins (a Potion, Debt)
SCORE_PARTS: dict[str, ScorePart] = {}     # VP a player scores besides their cards and VP tokens (Landmarks)
# what a player does instead of following a played card's instructions, or None (Enchantress)
PLAY_INSTEAD: dict[str, Callable[[Game, Player, Card], Any]] = {}


def buy_check(name: str, events: bool = False) -> Callable[[BuyCheck], BuyCheck]:
    """Decorator: ``fn(game, pile, card)`` says why the current player can't buy ``card`` (the top of ``pile``);
    ``events``: it forbids buying Events too ("you can't buy anything", DEBT § IV), not only cards."""
    def register(fn: BuyCheck) -> BuyCheck:
        BUY_CHECKS[name] = fn
        if events:
            EVENT_CHECKS.add(name)
        return fn
    return register


def buy_payment(name: str) -> Callable[[Payment], Payment]:
    """Decorator: ``fn(game, card)`` pays the rest of a bought card's cost once its coins are paid."""
    def register(fn: Payment) -> Payment:
        BUY_PAYMENTS[name] = fn
        return fn
    return register


def why_not_buyable(game: Game, pile: str, card: Card, event: bool = False) -> str | None:
    """The first reason a registered mechanism gives why ``card`` (an Event when ``event``) can't be bought now."""
    for name, check in BUY_CHECKS.items():
        if event and name not in EVENT_CHECKS:
            continue
        why = check(game, pile, card)
        if why:
            return why
    return None


def pay_rest(game: Game, card: Card) -> None:
    for pay in BUY_PAYMENTS.values():
        pay(game, card)


def score_part(name: str) -> Callable[[ScorePart], ScorePart]:
    """Decorator: ``fn(game, player)`` is VP the player scores besides cards and VP tokens (a scoring Landmark)."""
    def register(fn: ScorePart) -> ScorePart:
        SCORE_PARTS[name] = fn
        return fn
    return register


def extra_score(game: Game, p: Player) -> int:
    return sum(part(game, p) for part in SCORE_PARTS.values())


@dataclass(frozen=True)
class Phase:
    """A phase a mechanism adds to the turn after the Buy phase, before Clean-up (Nocturne's Night phase).

    ``in_game(game)``: whether this game has the phase at all ("If any Night cards are in the game",
    Night phase § II); ``plays(card)``: which cards a player may play from hand in it (Night cards,
    NIGHT CARDS § IV); ``label``: its name in a player's words; ``cite``: the rule that adds it.
    """
    name: str
    label: str
    in_game: Callable[[Game], bool]
    plays: Callable[[Card], bool]
    cite: dict


PHASES: dict[str, Phase] = {}     # in turn order: each comes after the Buy phase and the ones before it


def phase(p: Phase) -> Phase:
    """Register a phase after the Buy phase (again under the same name replaces it: a retried load)."""
    PHASES[p.name] = p
    return p


def phase_to_play(game: Game, card: Card) -> Phase | None:
    """The registered phase in which ``card`` may be played from hand now: the current one, or a later one the
    turn can still move to (from the Action or Buy phase, or an earlier registered phase); None if none."""
    names = list(PHASES)
    now = game.turn.phase
    for i, ph in enumerate(PHASES.values()):
        reachable = now in ("action", "buy", "buy2") or (now in names and names.index(now) <= i)
        if reachable and ph.plays(card) and ph.in_game(game):
            return ph
    return None


def play_instead(name: str) -> Callable:
    """Decorator: ``fn(game, player, card)`` returns an effect the player resolves *instead of* the played card's
    play ability (its instructions), or None. It is asked after Attack Reactions (Enchantress 9)."""
    def register(fn: Callable[[Game, Player, Card], Any]) -> Callable:
        PLAY_INSTEAD[name] = fn
        return fn
    return register


def instead_of_play(game: Game, p: Player, card: Card) -> Any:
    for fn in PLAY_INSTEAD.values():
        effect = fn(game, p, card)
        if effect is not None:
            return effect
    return None


HandDraw = Callable[[Game, Player, int], int]
HAND_DRAWS: dict[str, HandDraw] = {}    # how many cards a player draws for their next hand in Clean-up (Flag)


def hand_draw(name: str) -> Callable[[HandDraw], HandDraw]:
    """Decorator: ``fn(game, player, n) -> n`` changes how many cards ``player`` draws for their hand in Clean-up."""
    def register(fn: HandDraw) -> HandDraw:
        HAND_DRAWS[name] = fn
        return fn
    return register


def cards_for_hand(game: Game, player: Player, n: int) -> int:
    for fn in HAND_DRAWS.values():
        n = fn(game, player, n)
    return n


# ------------------------------------------------------------------ a changed play ability
PlayChange = Callable[[Game, Card], Any]
PLAY_CHANGES: dict[str, PlayChange] = {}   # the play ability a card has now instead of its own (Envious: Silver, $1)


def play_change(name: str) -> Callable[[PlayChange], PlayChange]:
    """Decorator: ``fn(game, card)`` gives the play ability ``card`` has now instead of its own (an Effect), or None
    (Envious changes the play ability of Silver and Gold: Envious 4)."""
    def register(fn: PlayChange) -> PlayChange:
        PLAY_CHANGES[name] = fn
        return fn
    return register


def play_ability(game: Game, card: Card, own: Any) -> Any:
    """The play ability ``card`` resolves now: the first change a mechanism registered, else its own."""
    for fn in PLAY_CHANGES.values():
        changed = fn(game, card)
        if changed is not None:
            return changed
    return own


# ------------------------------------------------------------------ shuffling
ShufflePick = Callable[[Game, Player, list[Card]], "Card | None"]
SHUFFLE_PICKS: dict[str, ShufflePick] = {}   # a card the shuffling player may put on top of the shuffled cards


def shuffle_pick(name: str) -> Callable[[ShufflePick], ShufflePick]:
    """Decorator: ``fn(game, player, cards)`` returns the one of ``cards`` (being shuffled, already in random
    order) that goes on top of them after shuffling, or None (Star Chart: "When shuffling, you may pick one")."""
    def register(fn: ShufflePick) -> ShufflePick:
        SHUFFLE_PICKS[name] = fn
        return fn
    return register


def picked_on_top(game: Game, player: Player, cards: list[Card]) -> "Card | None":
    for fn in SHUFFLE_PICKS.values():
        card = fn(game, player, cards)
        if card is not None:
            return card
    return None


# ------------------------------------------------------------------ turns after the game would end
@dataclass
class FinalRound:
    """A round of turns after the game would have ended (Fleet), registered by a mechanism or card.

    ``who(game, order)``: of the players in turn order from the one after the last regular turn's player, those
    who get a turn in it; ``label``: what such a turn is called ("Fleet turn"); ``cite``: the rule.
    """
    name: str
    who: Callable[[Game, list[Player]], list[Player]]
    label: str
    cite: dict


FINAL_ROUNDS: dict[str, FinalRound] = {}


def final_round(r: FinalRound) -> FinalRound:
    FINAL_ROUNDS[r.name] = r
    return r


def final_round_turns(game: Game, order: list[Player]) -> tuple[list[Player], FinalRound] | None:
    """The players who take a turn after the game would end, and the round's rule; None when there is none."""
    for r in FINAL_ROUNDS.values():
        players = r.who(game, order)
        if players:
            return players, r
    return None
