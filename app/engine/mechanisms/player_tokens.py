"""The Adventures player tokens: one of each per player, on Supply piles, on the deck, in front of you.

Why a module of its own: the tokens are moved by four Kingdom cards (Ranger, Giant,
Relic, Bridge Troll, Teacher) and eleven Events, but what a token *does* is a rule of
the token, not of the card that moved it (Complete Rules, ADVENTURES TOKENS § IV: "The
rules for the different cardboard tokens are given on the cards or Events that let you
move them or use them, except for the -1 Card token and the -1 token: the rules for
those tokens are stated on the tokens themselves"). So the token's rule is here, once,
and the cards only call ``move_token``, ``take_minus_coin``, ``put_minus_card``,
``turn_journey`` or ``set_estate_token``.

The rules implemented (Complete Rules = CR; Adventures rulebook = AR, section "Tokens"):

* Counter-limited: "there is just one of each per player" (AR Tokens). Placing a token
  that is already on a pile *moves* it (CR ADVENTURES TOKENS: "To place a token that is
  already on another pile, you move it from that pile"). Tokens may go on an empty pile
  (CR; AR) and stay when cards are taken from the pile.
* The +1 Card, +1 Action, +1 Buy and +$1 tokens (Pathfinding, Lost Arts, Seaway,
  Training, Teacher): "When you play a card from a pile with one of your "+" tokens, the
  bonus ... is a before-play ability" (CR ADVENTURES TOKENS; BEFORE-PLAY ABILITIES § III):
  it resolves before the card's own play ability and before other players' Reactions to
  an Attack (CR Triggered ability: "you first resolve Urchin's before-play ability and
  then other players resolve any Reactions"). "Tokens from other players do nothing for
  you" (CR). Several of your tokens on one pile all work (AR Tokens).
* The -$2 Cost token (Ferry): a cost reduction of $2 for cards from that pile, on your
  turns only, for all purposes, not below $0 (Your -2 Cost token 1-2; AR Tokens).
* The Trashing token (Plan): when you gain a card from that pile, you may trash a card
  from your hand (Your Trashing token 1, 2022); the pre-2022 Plan: only when you *buy*
  one (Your Trashing token 2; AR Tokens). The rule follows the version of Plan the game
  uses.
* The -$1 token (Ball, Bridge Troll): the next time you get $, you get $1 less and
  return it; getting $0 does not remove it (Your -1 token 1); taking it while you have
  it does nothing (Your -1 token 2).
* The -1 Card token (Borrow, Raid, Relic): on your deck; the next time you are told to
  *draw* (not reveal or look at), you draw one fewer and remove it (Your -1 Card token
  1); "draw to x" removes it only when it would draw (2); it works like a card on the
  deck, so removing it never shuffles (3); putting it there again does nothing (4).
* The Journey token (Ranger, Giant, Pilgrimage): starts face up (CR Special setup: "The
  Journey token starts the game face up"); each of those turns it over, then checks.
* The Estate token (Inheritance, 2019/2022 version): during your turns, every Estate in
  the game is also an Action-Command card with "Play the card with your Estate token,
  leaving it there" (Your Estate token 1-2, 4); the Estate pile stays a Victory pile, so
  no Adventures token can go on it (5).

Choice made: the bonuses of one player's several "+" tokens on the same pile resolve
in the fixed order +1 Card, +1 Action, +1 Buy, +$1 without asking, since the order of
those four cannot change anything; they are still one player's before-play abilities,
ordered against other before-play abilities (Urchin, Kiln) by the usual question.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from app.engine.core import activities as act
from app.engine.core import effects as fx
from app.engine.core import narrate
from app.engine.core.costs import CostModifier, add_modifier
from app.engine.core.registry import CardDef, register
from app.engine.core.errors import EngineError, IllegalAction, ScenarioError
from app.engine.core.state import Card, Game, LaterAbility, Player, card_facts
from app.engine.core.triggers import Event
from app.engine.scenario.extensions import expect_key, setup_key

TOKENS = narrate.sec("Adventures tokens / Traits", "Adventures tokens")
BEFORE_PLAY = narrate.sec("Basic timing rules", "Before-play abilities")
COST_REDUCTION = narrate.COST_REDUCTION


def T(entry: str, n: int | None = None) -> dict:
    """Citation of a token's own Card Reference entry ("Your -1 Card token 3")."""
    return {"card": entry} if n is None else {"card": entry, "ruling": n}


PLUS_CARD, PLUS_ACTION, PLUS_BUY, PLUS_COIN = "+1 Card", "+1 Action", "+1 Buy", "+$1"
MINUS_COST, TRASHING = "-$2 Cost", "Trashing"
PLUS_TOKENS = (PLUS_CARD, PLUS_ACTION, PLUS_BUY, PLUS_COIN)
PILE_TOKENS = PLUS_TOKENS + (MINUS_COST, TRASHING)      # the tokens that go on Action Supply piles
ENTRY = {PLUS_CARD: "Your +1 Card token", PLUS_ACTION: "Your +1 Action token", PLUS_BUY: "Your +1 Buy token",
         PLUS_COIN: "Your +$1 token", MINUS_COST: "Your -2 Cost token", TRASHING: "Your Trashing token"}
FACE_UP, FACE_DOWN = "face up", "face down"

# Card name -> the pile it belongs to, for piles of differently named cards (Knights: Dark Ages may add).
PILE_OF: dict[str, str] = {}


@dataclass
class Tokens:
    """One player's Adventures tokens."""

    piles: dict[str, str] = field(default_factory=dict)   # token -> Supply pile it is on
    journey_up: bool = True                                 # starts face up (CR Special setup)
    minus_coin: bool = False                                # has their -$1 token
    minus_card: bool = False                                # -1 Card token is on their deck
    estate: Card | None = None                              # the card with their Estate token
    estate_pre_2019: bool = False                           # set by the pre-2019 Inheritance (your Estates only)
    rules: set = field(default_factory=set)                 # which of this player's token rules are set up


def tokens(game: Game, p: Player) -> Tokens:
    table = game.__dict__.setdefault("adventures_tokens", {})
    t = table.get(p.index)
    if t is None:
        t = table[p.index] = Tokens()
    return t


def _all(game: Game) -> dict[int, Tokens]:
    return game.__dict__.get("adventures_tokens", {})


def pile_of(card: Card) -> str:
    """The Supply pile a card is from (its name, unless a pile holds differently named cards)."""
    return PILE_OF.get(card.name, card.name)


def tokens_on(game: Game, p: Player, pile: str) -> list[str]:
    """``p``'s tokens on ``pile`` (Teacher: "a pile you have no tokens on" counts all of them)."""
    return [k for k, v in tokens(game, p).piles.items() if v == pile]


def is_action_supply_pile(game: Game, pile: str) -> bool:
    """An Action Supply pile: in the Supply (maybe empty), its cards Action cards; Estates stay Victory (Your Estate token 5)."""
    return pile in game.supply and "Action" in card_facts(pile).types


# ------------------------------------------------------------------ pile tokens
def move_token(game: Game, p: Player, kind: str, pile: str, cite: dict | None = None, why: str = "") -> None:
    """Put (or move) ``p``'s ``kind`` token on ``pile``; sets up the token's rule the first time."""
    if kind not in PILE_TOKENS:
        raise EngineError(f"{kind!r} is not a token that goes on a pile ({', '.join(PILE_TOKENS)})")
    if not is_action_supply_pile(game, pile):
        raise IllegalAction(f"{p.name}'s {kind} token can only go on an Action Supply pile, not {pile}")
    t = tokens(game, p)
    old = t.piles.get(kind)
    t.piles[kind] = pile
    verb = f"moves their {kind} token from the {old} pile to" if old and old != pile else f"puts their {kind} token on"
    game.log.add(f"{p.name} {verb} the {pile} pile{why}", *(c for c in (cite, TOKENS) if c))
    _set_up_rule(game, p, kind)


def _set_up_rule(game: Game, p: Player, kind: str) -> None:
    t = tokens(game, p)
    rule = "plus" if kind in PLUS_TOKENS else kind
    if rule in t.rules:
        return
    t.rules.add(rule)
    if rule == "plus":
        game.later.append(LaterAbility(p.index, "before_play", f"{p.name}'s tokens on the pile", _plus_bonus, None,
                                       _from_plus_pile, "game", [TOKENS]))
    elif rule == MINUS_COST:
        add_modifier(game, CostModifier(2, f"{p.name}'s -$2 Cost token", _on_minus_cost_pile(p.index),
                                        condition=lambda g, i=p.index: g.turn.player == i,
                                        citation=T(ENTRY[MINUS_COST], 1)))
    elif rule == TRASHING:
        game.later.append(LaterAbility(p.index, "when_gain", f"{p.name}'s Trashing token", _trashing,
                                       None, _from_trashing_pile, "game", [T(ENTRY[TRASHING], 1)]))
        game.later.append(LaterAbility(p.index, "when_buy", f"{p.name}'s Trashing token", _trashing,
                                       None, _from_trashing_pile, "game", [T(ENTRY[TRASHING], 2)]))


def _from_plus_pile(game: Game, ev: Event) -> bool:
    piles = tokens(game, ev.player).piles
    return ev.card is not None and any(piles.get(k) == pile_of(ev.card) for k in PLUS_TOKENS)


def _plus_bonus(game: Game, ev: Event) -> None:
    """The "+" tokens' before-play bonus: first +1 Card, +1 Action, +1 Buy, +$1 (ADVENTURES TOKENS § IV)."""
    p, pile = ev.player, pile_of(ev.card)
    mine = [k for k in PLUS_TOKENS if tokens(game, p).piles.get(k) == pile]
    game.log.add(f"{p.name} plays a card from the {pile} pile, where they have their {', '.join(mine)} token"
                 f"{'s' if len(mine) > 1 else ''}: first the bonus", TOKENS, BEFORE_PLAY)
    ctx = fx.Ctx(game, p, None)
    for k in mine:
        if k == PLUS_CARD:
            fx.Draw(1).apply(ctx)
        elif k == PLUS_ACTION:
            fx.PlusActions(1).apply(ctx)
        elif k == PLUS_BUY:
            fx.PlusBuys(1).apply(ctx)
        else:
            fx.PlusCoins(1).apply(ctx)


def _on_minus_cost_pile(owner: int) -> Callable[[Game, Card], bool]:
    def applies(game: Game, card: Card) -> bool:
        pile = tokens(game, game.players[owner]).piles.get(MINUS_COST)
        return pile is not None and pile_of(card) == pile
    return applies


def _from_trashing_pile(game: Game, ev: Event) -> bool:
    """2022 Plan: when you gain a card from that pile; pre-2022: only when you buy one (Your Trashing token 1-2)."""
    pile = tokens(game, ev.player).piles.get(TRASHING)
    if ev.card is None or pile is None or pile_of(ev.card) != pile:
        return False
    old = game.versions.get("Plan") == "1"
    return ev.kind == ("when_buy" if old else "when_gain")


def _trashing(game: Game, ev: Event) -> None:
    p = ev.player
    cite = T(ENTRY[TRASHING], 2 if ev.kind == "when_buy" else 1)
    verb = "buys" if ev.kind == "when_buy" else "gains"
    game.log.add(f"{p.name} {verb} a card from the {pile_of(ev.card)} pile, where their Trashing token is: they "
                 "may trash a card from their hand", cite)
    fx.ChooseFromHand("trash", 0, 1, cite=cite).apply(fx.Ctx(game, p, None))


# ------------------------------------------------------------------ the -$1 token
def take_minus_coin(game: Game, p: Player, cite: dict | None = None) -> bool:
    """Take your -$1 token; if you already have it, nothing happens (Your -1 token 2)."""
    t = tokens(game, p)
    if t.minus_coin:
        game.log.add(f"{p.name} already has their -$1 token, so taking it does nothing", T("Your -1 token", 2),
                     *([cite] if cite else []))
        return False
    t.minus_coin = True
    game.log.add(f"{p.name} takes their -$1 token (the next time they get $, they get $1 less)",
                 *(c for c in (cite, T("Your -1 token")) if c))
    return True


def _coin_hook(game: Game, p: Player, n: int) -> int:
    t = _all(game).get(p.index)
    if t is None or not t.minus_coin or n < 1:
        return n     # getting $0 does not remove it (Your -1 token 1)
    t.minus_coin = False
    game.log.add(f"{p.name} returns their -$1 token: +${n} becomes +${n - 1}", T("Your -1 token", 1))
    return n - 1


# ------------------------------------------------------------------ the -1 Card token
def put_minus_card(game: Game, p: Player, cite: dict | None = None) -> bool:
    """Put your -1 Card token on your deck; if it is already there, nothing happens (Your -1 Card token 4)."""
    t = tokens(game, p)
    if t.minus_card:
        game.log.add(f"{p.name}'s -1 Card token is already on their deck, so nothing happens",
                     T("Your -1 Card token", 4), *([cite] if cite else []))
        return False
    t.minus_card = True
    game.log.add(f"{p.name} puts their -1 Card token on their deck (the next time they draw, they draw one "
                 "card fewer)", *(c for c in (cite, T("Your -1 Card token")) if c))
    return True


def _draw_hook(game: Game, p: Player, n: int) -> int:
    t = _all(game).get(p.index)
    if t is None or not t.minus_card or n < 1:
        return n     # "draw to x" with x cards in hand draws nothing and leaves it (Your -1 Card token 2)
    t.minus_card = False
    game.log.add(f"{p.name} is told to draw: they remove their -1 Card token from their deck instead of "
                 f"drawing a card{' (no shuffle for it)' if not p.deck else ''}",
                 T("Your -1 Card token", 1), T("Your -1 Card token", 3))
    return n - 1


# ------------------------------------------------------------------ the Journey token
def turn_journey(game: Game, p: Player, cite: dict | None = None) -> bool:
    """Turn your Journey token over; returns True if it is now face up (Ranger, Giant, Pilgrimage)."""
    t = tokens(game, p)
    t.journey_up = not t.journey_up
    game.log.add(f"{p.name} turns their Journey token over: it is now {FACE_UP if t.journey_up else FACE_DOWN}",
                 *([cite] if cite else []))
    return t.journey_up


# ------------------------------------------------------------------ the Estate token
class _InheritedTypes:
    """The types Estates have on top of Victory: Action and Command, during the turns of a player with an Estate token."""

    def __init__(self, game: Game):
        self.game = game

    def __contains__(self, t: object) -> bool:
        if t not in ("Action", "Command") or self.game.over:
            # scoring is at no one's turn: Estates are not Actions for Vineyards (Your Estate token 6)
            return False
        own = _all(self.game).get(self.game.turn.player)
        return own is not None and own.estate is not None


def set_estate_token(game: Game, p: Player, card: Card, cite: dict | None = None) -> None:
    """Set aside ``card`` (from the Supply) with your Estate token on it (Inheritance; not gaining it).

    Estates then use the "inherited" version of their definition in this game (as Curses do with
    Charlatan): an Action-Command card, during the token owner's turns, that plays the token's card.
    With the pre-2019 Inheritance (``versions: {Inheritance: "1"}``) only the Estates the player owns
    change, for the whole game: they have the card's abilities and types (``_set_pre_2019``).
    """
    t = tokens(game, p)
    game.move(card, "set_aside", owner=p.index)
    card.set_aside_by = None
    t.estate = card
    if game.versions.get("Inheritance") == "1":
        _set_pre_2019(game, p, t, card, cite)
        return
    game.extra_types["Estate"] = _InheritedTypes(game)
    game.versions["Estate"] = INHERITED
    game.log.add(f"{p.name} sets aside {card.name} from the Supply and moves their Estate token to it: during "
                 f"{p.name}'s turns, Estates are also Action-Command cards that play it",
                 *(c for c in (cite, T("Your Estate token", 2)) if c))


def _play_inherited(ctx: fx.Ctx) -> bool:
    """During the turns of the player with the Estate token: play the card with that token, leaving it there.

    Your Estate token 2-3: "Play the card with your Estate token, leaving it there".
    """
    game = ctx.game
    t = _all(game).get(game.turn.player)
    if t is None or t.estate is None:
        return False
    act.play(game, ctx.player, t.estate, by=ctx.source, leave=True)
    return True


INHERITED = "inherited"
register(CardDef("Estate", fx.Do(_play_inherited), version=INHERITED, vp=1,
                 note="in games where someone bought Inheritance: during that player's turns also an "
                      "Action-Command card that plays the card with their Estate token"), default=False)


# ------------------------------------------------------------------ the Estate token, pre-2019 Inheritance
PRE_2019 = "inherited-pre-2019"


def _pre_2019_token(game: Game, estate: Card) -> Card | None:
    """The card with the Estate token of this Estate's owner, if that token was placed by the pre-2019 Inheritance.

    Only Estates you own are changed (Your Estate token pre-2019 1-2: "An Estate is yours as described at the
    top of LOCATIONS IN THE GAME"): an Estate in the Supply or the trash is nobody's (7, 11).
    """
    if estate.owner is None or estate.zone in ("supply", "trash", "non_supply"):
        return None
    t = _all(game).get(estate.owner)
    return t.estate if t is not None and t.estate_pre_2019 else None


def _own_inherited_types(game: Game):
    def has(card: Card, t: str) -> bool:
        # "in addition to having the type Victory"; still so when scoring (Your Estate token pre-2019 1, 10)
        token_card = _pre_2019_token(game, card)
        return token_card is not None and token_card.is_type(t)
    return has


def _set_pre_2019(game: Game, p: Player, t: Tokens, card: Card, cite: dict | None) -> None:
    t.estate_pre_2019 = True
    game.extra_types["Estate"] = _own_inherited_types(game)
    game.versions["Estate"] = PRE_2019
    game.log.add(f"{p.name} sets aside {card.name} from the Supply and moves their Estate token to it: for the rest "
                 f"of the game, Estates {p.name} owns have the abilities and types of {card.name} (they keep the "
                 "name Estate and cost $2)", *(c for c in (cite, T("Your Estate token", 1) | {"version": "pre-2019"})
                                              if c))


def _resolve_inherited(ctx: fx.Ctx) -> bool:
    """An Estate you own has the card's abilities: its play ability is the Estate's own, "this" is the Estate
    (Your Estate token pre-2019 1, 4); it is not playing the set-aside card."""
    from app.engine.core.registry import definition

    token_card = _pre_2019_token(ctx.game, ctx.source)
    if token_card is None:
        ctx.log(f"This Estate is not {ctx.player.name}'s own inherited Estate: it has no abilities",
                T("Your Estate token", 1) | {"version": "pre-2019"})
        return False
    d = definition(ctx.game, token_card.name)
    return bool(d is not None and d.play is not None and d.play.apply(ctx))


PRE_2019_DEF = register(CardDef("Estate", fx.Do(_resolve_inherited), version=PRE_2019, vp=1,
                                               note="in games with the pre-2019 Inheritance: Estates a player owns have the abilities "
                                     "and types of the card with that player's Estate token"), default=False)



# ------------------------------------------------------------------ hooks into drawing and getting $
if _draw_hook not in act.DRAW_HOOKS:
    act.DRAW_HOOKS.append(_draw_hook)
if _coin_hook not in fx.COIN_HOOKS:
    fx.COIN_HOOKS.append(_coin_hook)


# ------------------------------------------------------------------ scenario setup and expectations
_PILES_SCHEMA = {"type": "object", "propertyNames": {"enum": list(PILE_TOKENS)},
                 "additionalProperties": {"type": "string"}}


@setup_key("token_piles", scope="player", schema=_PILES_SCHEMA,
           doc="The player's Adventures tokens on Supply piles at the start (+1 Card, +1 Action, +1 Buy, +$1, "
               "-$2 Cost, Trashing)",
           example="token_piles: {+1 Card: Village, -$2 Cost: Smithy}")
def _setup_piles(game: Game, p: Player, value: dict) -> None:
    if not isinstance(value, dict):
        raise ScenarioError("setup", "token_piles: expected a mapping of token to Supply pile")
    for kind, pile in value.items():
        if kind not in PILE_TOKENS:
            raise ScenarioError("setup", f"token_piles: unknown token {kind!r}; expected one of {', '.join(PILE_TOKENS)}")
        move_token(game, p, kind, _pile_name(game, pile))


def _pile_name(game: Game, name: object) -> str:
    for pile in game.supply:
        if isinstance(name, str) and pile.lower() == name.strip().lower():
            return pile
    raise ScenarioError("setup", f"{name!r} is not a Supply pile in this game ({', '.join(game.supply)})")


@setup_key("journey_token", scope="player", schema={"enum": [FACE_UP, FACE_DOWN]},
           doc="Whether the player's Journey token is face up (the default) or face down",
           example="journey_token: face down")
def _setup_journey(game: Game, p: Player, value: str) -> None:
    if value not in (FACE_UP, FACE_DOWN):
        raise ScenarioError("setup", f"journey_token: expected {FACE_UP!r} or {FACE_DOWN!r}, found {value!r}")
    tokens(game, p).journey_up = value == FACE_UP


@setup_key("minus_coin_token", scope="player", schema={"type": "boolean"},
           doc="The player has their -$1 token (given by Ball or Bridge Troll)", example="minus_coin_token: true")
def _setup_minus_coin(game: Game, p: Player, value: bool) -> None:
    tokens(game, p).minus_coin = bool(value)


@setup_key("minus_card_token", scope="player", schema={"type": "boolean"},
           doc="The player's -1 Card token is on their deck (put there by Relic, Borrow or Raid)",
           example="minus_card_token: true")
def _setup_minus_card(game: Game, p: Player, value: bool) -> None:
    tokens(game, p).minus_card = bool(value)


@setup_key("estate_token", scope="player", schema={"type": "string"},
           doc="The card set aside with the player's Estate token (Inheritance), taken from its Supply pile",
           example="estate_token: Village")
def _setup_estate(game: Game, p: Player, value: str) -> None:
    pile = game.supply.get(_pile_name(game, value))
    if not pile:
        raise ScenarioError("setup", f"estate_token: the {value} pile is empty")
    set_estate_token(game, p, pile[-1])


@expect_key("token_piles", scope="player", schema=_PILES_SCHEMA,
            doc="Where the player's pile tokens are (every one they have placed)",
            example="token_piles: {+1 Buy: Village}")
def _read_piles(game: Game, p: Player) -> dict:
    return dict(tokens(game, p).piles)


@expect_key("journey_token", scope="player", schema={"enum": [FACE_UP, FACE_DOWN]},
            doc="Whether the player's Journey token is face up or face down", example="journey_token: face up")
def _read_journey(game: Game, p: Player) -> str:
    return FACE_UP if tokens(game, p).journey_up else FACE_DOWN


@expect_key("minus_coin_token", scope="player", schema={"type": "boolean"},
            doc="Whether the player has their -$1 token", example="minus_coin_token: false")
def _read_minus_coin(game: Game, p: Player) -> bool:
    return tokens(game, p).minus_coin


@expect_key("minus_card_token", scope="player", schema={"type": "boolean"},
            doc="Whether the player's -1 Card token is on their deck", example="minus_card_token: true")
def _read_minus_card(game: Game, p: Player) -> bool:
    return tokens(game, p).minus_card


@expect_key("estate_token", scope="player", schema={"type": ["string", "null"]},
            doc="The card the player's Estate token is on (null: none)", example="estate_token: Village")
def _read_estate(game: Game, p: Player) -> str | None:
    c = tokens(game, p).estate
    return c.name if c is not None else None


__all__ = ["PLUS_CARD", "PLUS_ACTION", "PLUS_BUY", "PLUS_COIN", "MINUS_COST", "TRASHING", "PLUS_TOKENS",
           "PILE_TOKENS", "FACE_UP", "FACE_DOWN", "PILE_OF", "Tokens", "tokens", "tokens_on", "pile_of",
           "is_action_supply_pile", "move_token", "take_minus_coin", "put_minus_card", "turn_journey",
           "set_estate_token", "Question"]
