"""The declarative vocabulary card definitions are written in.

Each effect is a small data object with ``apply(ctx) -> bool``; the boolean
says whether the effect was done, which is what "if you did" (§ III Effects
contingent on other effects) looks at. Effects "do as much as they can" (§ III):
drawing 3 from a 2-card deck and empty discard draws 2 and still counts as done.
Named results (the trashed card, the revealed cards...) are kept in
``ctx.vars`` so a later effect of the same ability can refer to them.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from app.corpus.card_facts import load_facts
from app.engine.core import activities as act
from app.engine.core import narrate
from app.engine.core.decisions import Question
from app.engine.core.state import Card, Game, Player, Ref

Num = int | Callable[["Ctx"], int]


@dataclass
class Ctx:
    """One resolution of an ability: who resolves it, its card, and where that card is expected."""

    game: Game
    player: Player
    source: Card | None
    source_ref: Ref | None = None
    vars: dict = field(default_factory=dict)
    unaffected: set = field(default_factory=set)   # players who revealed a Reaction to this Attack
    attacker: Player | None = None
    last: bool = True                              # result of the previous effect ("if you did")

    def num(self, n: Num) -> int:
        return n(self) if callable(n) else n

    def ask(self, q: Question) -> Any:
        # a player shown "trash a card" must see which card asks it (issue #35): the ability's own card
        if not q.about and self.source is not None and self.source.name not in q.prompt:
            q.about = self.source.name
        return self.game.decider.ask(q)

    def for_player(self, p: Player) -> "Ctx":
        return Ctx(self.game, p, self.source, self.source_ref, dict(self.vars), self.unaffected,
                   attacker=self.player)

    def log(self, text: str, *cites: dict) -> None:
        self.game.log.add(text, *cites)


class Effect:
    cite: dict | None = None

    def apply(self, ctx: Ctx) -> bool:  # pragma: no cover - interface
        raise NotImplementedError


def _cite(e: Effect) -> dict:
    return e.cite or {}


# ------------------------------------------------------------------ structure
@dataclass
class Sequence(Effect):
    effects: tuple[Effect, ...]

    def __init__(self, *effects: Effect):
        self.effects = effects

    def apply(self, ctx: Ctx) -> bool:
        for e in self.effects:
            ctx.last = e.apply(ctx)
        return ctx.last


@dataclass
class May(Effect):
    """An optional effect: asks yes/no unless the inner effect itself offers 'none' as an answer."""

    effect: Effect
    prompt: str
    cite: dict | None = None

    def apply(self, ctx: Ctx) -> bool:
        if not ctx.ask(Question(ctx.player.name, self.prompt, "yesno", [])):
            ctx.log(f"{ctx.player.name} chooses not to {self.prompt.rstrip('?').lower()}", _cite(self))
            return False
        return self.effect.apply(ctx)


@dataclass
class IfYouDid(Effect):
    effect: Effect
    cite: dict | None = None

    def apply(self, ctx: Ctx) -> bool:
        if not ctx.last:
            ctx.log("…so the effect that depends on it does not happen", self.cite or narrate.IF_YOU_DID)
            return False
        return self.effect.apply(ctx)


@dataclass
class ChooseOne(Effect):
    options: dict[str, Effect]
    chooser: str = "player"       # 'player' or 'attacker'

    def apply(self, ctx: Ctx) -> bool:
        who = ctx.attacker if self.chooser == "attacker" and ctx.attacker else ctx.player
        # the card's name in the prompt: an answer may name its question ("Count: choose one")
        what = f"{ctx.source.name}: choose one" if ctx.source is not None else "choose one"
        label = ctx.ask(Question(who.name, what, "choice", list(self.options)))
        ctx.log(f"{who.name} chooses: {label}", narrate.SEVERAL_OPTIONS)
        return self.options[label].apply(ctx)


@dataclass
class Do(Effect):
    """A card-specific step written as a function (special cases stay in the card)."""

    fn: Callable[[Ctx], bool | None]

    def apply(self, ctx: Ctx) -> bool:
        r = self.fn(ctx)
        return True if r is None else bool(r)


@dataclass
class EachOtherPlayer(Effect):
    """Resolve fully for each other player in turn order (§ III Grouping of effects 2)."""

    effect: Effect
    cite: dict | None = None

    def apply(self, ctx: Ctx) -> bool:
        for p in ctx.game.others(ctx.player):
            if ctx.source is not None and ctx.source.is_type("Attack") and p.index in ctx.unaffected:
                ctx.log(f"{p.name} is unaffected by {ctx.source.name}", narrate.REACTION_TO_ATTACK)
                continue
            self.effect.apply(ctx.for_player(p))
        return True


@dataclass
class EachPlayer(Effect):
    effect: Effect

    def apply(self, ctx: Ctx) -> bool:
        for p in ctx.game.in_turn_order(ctx.player.index):
            if p is not ctx.player and ctx.source is not None and ctx.source.is_type("Attack") and p.index in ctx.unaffected:
                ctx.log(f"{p.name} is unaffected by {ctx.source.name}", narrate.REACTION_TO_ATTACK)
                continue
            sub = ctx.for_player(p)
            sub.attacker = ctx.player
            self.effect.apply(sub)
        return True


# ------------------------------------------------------------------ pools
@dataclass
class PlusActions(Effect):
    n: int

    def apply(self, ctx: Ctx) -> bool:
        ctx.game.turn.actions += self.n
        ctx.log(f"+{self.n} Action{'s' if self.n != 1 else ''} (Actions: {ctx.game.turn.actions})")
        return True


@dataclass
class PlusBuys(Effect):
    n: int

    def apply(self, ctx: Ctx) -> bool:
        ctx.game.turn.buys += self.n
        ctx.log(f"+{self.n} Buy{'s' if self.n != 1 else ''} (Buys: {ctx.game.turn.buys})")
        return True


# Mechanisms that change how much $ a player gets (the -$1 token, player_tokens.py):
# each is ``hook(game, player, n) -> n``, applied when +$ is given.
COIN_HOOKS: list[Callable[[Game, Player, int], int]] = []


@dataclass
class PlusCoins(Effect):
    n: Num
    cite: dict | None = None

    def apply(self, ctx: Ctx) -> bool:
        n = ctx.num(self.n)
        for hook in COIN_HOOKS:
            n = hook(ctx.game, ctx.player, n)
        ctx.game.turn.coins += n
        ctx.log(f"+${n} ({narrate.pool(ctx.game.turn)})", _cite(self))
        return True


# ------------------------------------------------------------------ cards
@dataclass
class Draw(Effect):
    n: Num
    cite: dict | None = None

    def apply(self, ctx: Ctx) -> bool:
        n = ctx.num(self.n)
        act.draw(ctx.game, ctx.player, n)
        return True


def cost_at_most(limit: Num) -> Callable[[Ctx, Card], bool]:
    return lambda ctx, c: c.cost <= ctx.num(limit)


def of_type(t: str) -> Callable[[Ctx, Card], bool]:
    return lambda ctx, c: c.is_type(t)


def both(*preds: Callable[[Ctx, Card], bool]) -> Callable[[Ctx, Card], bool]:
    return lambda ctx, c: all(p(ctx, c) for p in preds)


@dataclass
class Gain(Effect):
    """Gain a named card, or a card of your choice from the Supply matching ``filter``."""

    name: str | None = None
    filter: Callable[[Ctx, Card], bool] | None = None
    to: str = "discard"
    store: str = "gained"
    cite: dict | None = None
    describe: str = "a card"

    def apply(self, ctx: Ctx) -> bool:
        g = ctx.game
        if self.name:
            card = act.gain(g, ctx.player, self.name, self.to, self.cite)
        else:
            tops = [pile[-1] for pile in g.supply.values() if pile and (self.filter is None or self.filter(ctx, pile[-1]))]
            if not tops:
                ctx.log(f"{ctx.player.name} cannot gain {self.describe}: none is available in the Supply",
                        narrate.DO_AS_MUCH)
                return False
            choice = ctx.ask(Question(ctx.player.name, f"gain {self.describe}", "cards", tops, 1, 1))
            # the chosen top card itself: a pile may mix names (Ruins, Knights), so its name need not be the pile's
            card = act.gain(g, ctx.player, choice[0], self.to, self.cite)
        ctx.vars[self.store] = card
        return card is not None


def _third_person(verb: str) -> str:
    """'trash' -> 'trashes' (not 'trashs'): the log is read by players."""
    return verb + ("es" if verb.endswith(("sh", "ch", "s", "x")) else "s")


@dataclass
class ChooseFromHand(Effect):
    """Choose cards from hand and do something with them (trash, discard, put onto deck)."""

    verb: str                     # 'trash' | 'discard' | 'topdeck' | 'reveal'
    min: Num = 1
    max: Num = 1
    filter: Callable[[Ctx, Card], bool] | None = None
    store: str = "chosen"
    cite: dict | None = None
    describe: str = "a card"

    def apply(self, ctx: Ctx) -> bool:
        p = ctx.player
        options = [c for c in p.hand if self.filter is None or self.filter(ctx, c)]
        lo, hi = ctx.num(self.min), ctx.num(self.max)
        hi = min(hi, len(options))
        lo = min(lo, hi)      # do as much as you can
        if not options or hi == 0:
            ctx.vars[self.store] = []
            if lo == 0 and ctx.num(self.min) == 0:
                ctx.log(f"{p.name} {_third_person(self.verb)} nothing")
            else:
                ctx.log(f"{p.name} cannot {self.verb} {self.describe}: none in hand", narrate.DO_AS_MUCH)
            return False
        chosen = ctx.ask(Question(p.name, f"{self.verb} {self.describe}", "cards", options, lo, hi))
        ctx.vars[self.store] = chosen
        if not chosen:
            ctx.log(f"{p.name} {_third_person(self.verb)} nothing", _cite(self))
            return False
        if self.verb == "trash":
            act.trash(ctx.game, p, chosen, self.cite)
        elif self.verb == "discard":
            act.discard(ctx.game, p, chosen, self.cite or narrate.DISCARDING)
        elif self.verb == "topdeck":
            for c in chosen:
                act.topdeck(ctx.game, p, c, self.cite)
        elif self.verb == "reveal":
            ctx.log(f"{p.name} reveals {act.names(chosen)}", self.cite or {})
            act.revealed(ctx.game, p, chosen)
        return True


@dataclass
class TrashForCost(Effect):
    """"Trash a card from your hand. +X per $1 it costs": the abilities that give a benefit based on the cost of
    the trashed card (COST REDUCTION § VI lists them: Apprentice, Bishop, Recruiter, Research, Ritual, Salvager,
    Trader ...). First the card is trashed, then it gives (TRIGGERED ABILITY § III); what counts is its cost when
    it was trashed, cost reductions included (Ritual 2-3). ``then(ctx, card, cost)`` gives the benefit; with no
    card in hand nothing is trashed and ``then`` is not called, and the log says ``none`` (or that none is in hand).
    """

    then: Callable[[Ctx, Card, int], bool]
    cite: dict | None = None
    none: str = ""                 # after the player's name: "has no card to trash (the +1 Buy still happened)"
    none_cite: dict | None = None

    def apply(self, ctx: Ctx) -> bool:
        p = ctx.player
        ctx.vars["trashed"] = []
        if not p.hand:
            ctx.log(f"{p.name} {self.none or 'has no card in hand to trash'}", self.none_cite or narrate.DO_AS_MUCH)
            return False
        card = ctx.ask(Question(p.name, "trash a card from your hand", "cards", list(p.hand), 1, 1))[0]
        cost = card.cost
        act.trash(ctx.game, p, [card], self.cite)
        ctx.vars["trashed"] = [card]
        return bool(self.then(ctx, card, cost))


@dataclass
class TrashSelf(Effect):
    """Trash the card whose ability this is, if it is still where the ability expects it (in play)."""

    cite: dict | None = None

    def apply(self, ctx: Ctx) -> bool:
        card = ctx.source
        if ctx.source_ref is None or not ctx.source_ref.valid():
            # "again" only when this play's card was trashed already (Throne Room's second Feast); a card
            # moved elsewhere (set aside, onto a mat) was never trashed (issue #35)
            why = "it is not trashed again" if card.zone == "trash" else \
                f"it is not trashed (it is {narrate.where(card, ctx.game)})"
            ctx.log(f"{card.name} is no longer in play, so {why}", narrate.LOSE_TRACK,
                    *([self.cite] if self.cite else []))
            return False
        act.trash(ctx.game, ctx.player, [card], self.cite)
        return True


@dataclass
class DiscardDownTo(Effect):
    n: int
    cite: dict | None = None

    def apply(self, ctx: Ctx) -> bool:
        p = ctx.player
        k = len(p.hand) - self.n
        if k <= 0:
            ctx.log(f"{p.name} already has {len(p.hand)} cards in hand and discards nothing",
                    narrate.DISCARD_DOWN)
            return True
        chosen = ctx.ask(Question(p.name, f"discard down to {self.n} cards in hand", "cards", list(p.hand), k, k))
        act.discard(ctx.game, p, chosen, self.cite or narrate.DISCARD_DOWN)
        return True


@dataclass
class DiscardOneIfFive(Effect):
    """"If you have at least 5 cards in hand, discard one that is X (or reveal you can't)" (Fear, Villain): with
    fewer than 5 cards nothing happens; with none that qualifies the hand is revealed."""

    filter: Callable[[Card], bool]
    what: str                       # "an Action or Treasure": the question and, without its article, the reveal
    cite: dict | None = None

    def apply(self, ctx: Ctx) -> bool:
        p = ctx.player
        if len(p.hand) < 5:
            ctx.log(f"{p.name} has {len(p.hand)} cards in hand, fewer than 5, and discards nothing", *self._cites())
            return False
        options = [c for c in p.hand if self.filter(c)]
        if not options:
            none = self.what.split(" ", 1)[1]
            ctx.log(f"{p.name} reveals their hand ({act.names(p.hand)}): no {none}", *self._cites())
            act.revealed(ctx.game, p, list(p.hand))
            return False
        chosen = ctx.ask(Question(p.name, f"discard {self.what}", "cards", options, 1, 1))
        act.discard(ctx.game, p, chosen, self.cite)
        return True

    def _cites(self) -> list[dict]:
        return [self.cite] if self.cite else []


@dataclass
class PlayActionMultiple(Effect):
    """A throne-room: choose an Action card from hand and play it ``times`` times (§ III)."""

    times: int = 2
    optional: bool = True
    cite: dict | None = None
    # which cards qualify (default: Action cards); Procession, Counterfeit narrow or change it
    filter: Callable[["Ctx", Card], bool] | None = None
    describe: str = "an Action card"
    store: str = "replayed"        # ctx.vars[store] = (card, Ref where it was put into play or None)

    def apply(self, ctx: Ctx) -> bool:
        p, g = ctx.player, ctx.game
        options = [c for c in p.hand if (self.filter(ctx, c) if self.filter else c.is_type("Action"))]
        if not options:
            ctx.log(f"{p.name} has no {self.describe.removeprefix('an ').removeprefix('a ')} in hand to play",
                    narrate.DO_AS_MUCH)
            return False
        lo = 0 if self.optional else 1
        chosen = ctx.ask(Question(p.name, f"choose {self.describe} to play {self.times} times", "cards",
                                  options, lo, 1))
        if not chosen:
            ctx.log(f"{p.name} chooses not to play a card with {ctx.source.name}", _cite(self))
            return False
        card = chosen[0]
        expected = g.ref(card)
        ordinal = ["", " a second time", " a third time", " a fourth time"]
        first = None
        for i in range(self.times):
            placed = act.play(g, p, card, expected, by=ctx.source, nth=ordinal[i] if i < 4 else f" time {i + 1}")
            if i == 0 and placed is not None:
                expected = first = placed     # afterwards it expects the card where it put it: in play
        ctx.vars[self.store] = (card, first)
        return True


@dataclass
class SetUpLater(Effect):
    """Set up an ability that triggers later this turn (or next turn, for Durations)."""

    trigger: str
    label: str
    effect: Effect
    condition: Callable[[Game, Any], bool] | None = None
    until: str = "end_of_turn"
    cite: dict | None = None

    def apply(self, ctx: Ctx) -> bool:
        def run(game: Game, ev: Any, ctx=ctx, self=self) -> None:
            sub = Ctx(game, ctx.player, ctx.source, ctx.source_ref)
            self.effect.apply(sub)
        keep = ctx.source if self.until == "used" else None
        act.set_up_later(ctx.game, ctx.player, self.trigger, self.label, run, keep, self.condition, self.until,
                         self.cite)
        return True


def put_back_in_any_order(ctx: Ctx, cards: list[Card], cite: dict,
                          prompt: str = "put the rest back on your deck: order them, top card first",
                          verb: str = "puts back") -> list[Card]:
    """"Put them back in any order": the card language's *Put card(s)* (move the cards in any order).

    The player orders the cards through the decision interface, top card first;
    they go onto the deck so that the first one named ends on top.
    """
    if not cards:
        return []
    p = ctx.player
    order = ctx.ask(Question(p.name, prompt, "order", list(cards)))
    for c in reversed(order):
        act.topdeck(ctx.game, p, c, quiet=True)
    ctx.log(f"{p.name} {verb} {act.names(order)} (top first)", cite)
    return order


# ------------------------------------------------------------------ name a card
def nameable() -> list[str]:
    """Names a player may name: any card, in the game or not (NAME A CARD § VI), but not a Landscape.

    Contraband 1: "Events or Projects can't be named"; Landmarks, Ways, Allies, Traits and Prophecies are
    Landscapes too, not cards (the card facts' purpose 'Landscape').
    """
    return sorted({f.name for f in load_facts().values() if f.purpose != "Landscape"})


def name_a_card(ctx: Ctx, who: Player, why: str) -> str | None:
    """``who`` names any card (NAME A CARD § VI); ``why`` says what the name is for, in the question."""
    q = Question(who.name, f"name a card ({why})", "choice", nameable())
    named = ctx.ask(q)
    ctx.log(f"{who.name} names {named}", narrate.NAME_A_CARD)
    return named
