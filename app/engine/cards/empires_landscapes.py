"""Empires' Events and Landmarks.

Events are bought with the Adventures mechanism (mechanisms/events.py): a Buy, the printed
cost, no card bought; a Debt cost is taken as Debt (mechanisms/debt.py). Landmarks are set
out with the ``landmarks`` setup key (mechanisms/landmarks.py): their VP tokens, setup and
abilities for the whole game, and their end-of-game scoring.

Changed texts have both versions, the current one as default ("2"), the earlier one ("1") chosen with
a scenario's ``versions``: Basilica, Colonnade, Defiled Shrine and Tax (pre-2022: on buying instead of
gaining in the Buy phase), Donate and Mountain Pass (pre-2021: after-turn abilities).

Choices where the documents leave room (also in docs/audit-empires.md):
* Annex: the player picks the cards (up to 5) that stay in the discard pile; the rest are
  shuffled together with the deck.
* Donate: its start-of-turn ability is set up like any other; when several resolve at the start
  of that turn the player orders them (the rules say Donate goes first: choose it first).
"""
from __future__ import annotations

from collections import Counter

from app.engine.core import activities as act
from app.engine.core import narrate
from app.engine.core.costs import up_to
from app.engine.core.decisions import Question
from app.engine.core.effects import ChooseFromHand, Ctx, Do, Gain, PlusBuys, Sequence, TrashForCost, both, of_type
from app.engine.core.narrate import R
from app.engine.core.state import Card, Game, LaterAbility, Player
from app.engine.core.triggers import Event
from app.engine.mechanisms import debt
from app.engine.mechanisms.events import register_event
from app.engine.mechanisms.landmarks import Ability, Landmark, add_tokens, register_landmark, take_vp
from app.engine.mechanisms.tokens import PILE_VP, add_pile_vp, add_vp, pile_vp

TRIGGERED = narrate.TRIGGERED


def _pile(card: Card) -> str:
    return card.pile or card.name


# ------------------------------------------------------------------ Events
def _advance(ctx: Ctx) -> bool:
    """You may trash an Action card from your hand. If you do, gain an Action card costing up to $6."""
    if not ChooseFromHand("trash", 0, 1, filter=of_type("Action"), describe="an Action card",
                          cite=R("Advance", 2)).apply(ctx) or not ctx.vars.get("chosen"):
        return False
    return Gain(filter=both(of_type("Action"), up_to(6)), describe="an Action card costing up to $6",
                cite=R("Advance", 1)).apply(ctx)


register_event("Advance", Do(_advance))


def _annex(ctx: Ctx) -> bool:
    """Look through your discard pile. Shuffle all but up to 5 cards from it into your deck. Gain a Duchy."""
    g, p = ctx.game, ctx.player
    keep = ctx.ask(Question(p.name, "choose up to 5 cards to leave in your discard pile", "cards", list(p.discard),
                            0, min(5, len(p.discard)))) if p.discard else []
    moving = [c for c in p.discard if c not in keep]
    mixed = list(p.deck) + moving
    g.rng.shuffle(mixed)
    for c in mixed:
        g.move(c, "deck", top=False)
    ctx.log(f"{p.name} shuffles {len(moving)} card{'s' if len(moving) != 1 else ''} from their discard pile into "
            f"their deck (deck now {len(p.deck)} cards; {len(p.discard)} left in the discard pile)", R("Annex", 2))
    act.gain(g, p, "Duchy", cite=R("Annex", 1))
    return True


register_event("Annex", Do(_annex))


def _banquet(ctx: Ctx) -> bool:
    """Gain 2 Coppers and a non-Victory card costing up to $5."""
    for _ in range(2):
        act.gain(ctx.game, ctx.player, "Copper", cite=R("Banquet", 2))
    return Gain(filter=lambda c2, c: not c.is_type("Victory") and up_to(5)(c2, c),
                describe="a non-Victory card costing up to $5", cite=R("Banquet", 1)).apply(ctx)


register_event("Banquet", Do(_banquet))


def _conquest(ctx: Ctx) -> bool:
    """Gain 2 Silvers. +1 VP per Silver you've gained this turn."""
    g, p = ctx.game, ctx.player
    for _ in range(2):
        act.gain(g, p, "Silver", cite=R("Conquest", 3))
    n = sum(1 for c in g.turn.gained if c.name == "Silver") if g.turn.player == p.index else 0
    add_vp(g, p, n, R("Conquest", 2), f" ({n} Silver{'s' if n != 1 else ''} gained this turn)")
    return True


register_event("Conquest", Do(_conquest))


def _delve(ctx: Ctx) -> bool:
    """Gain a Silver."""
    return act.gain(ctx.game, ctx.player, "Silver", cite=R("Delve")) is not None


register_event("Delve", Sequence(PlusBuys(1), Do(_delve)))


def _dominate(ctx: Ctx) -> bool:
    """Gain a Province. If you do, +9 VP."""
    if act.gain(ctx.game, ctx.player, "Province", cite=R("Dominate", 1)) is None:
        ctx.log("No Province was gained, so no VP", R("Dominate", 1))
        return False
    add_vp(ctx.game, ctx.player, 9, R("Dominate", 1))
    return True


register_event("Dominate", Do(_dominate))


def _donate_now(game: Game, p: Player, cite: dict) -> None:
    """Put your deck and discard pile into your hand, trash any number of cards from it, then shuffle the rest into your deck and draw 5 cards."""
    for c in list(p.deck) + list(p.discard):
        game.move(c, "hand")
    game.log.add(f"{p.name} puts their deck and discard pile into their hand ({len(p.hand)} cards)", cite)
    gone = game.decider.ask(Question(p.name, "trash any number of cards from your hand", "cards", list(p.hand),
                                     0, len(p.hand)))
    act.trash(game, p, gone, cite)
    rest = act.shuffled(game, p, p.hand)
    for c in rest:
        game.move(c, "deck", top=False)
    game.log.add(f"{p.name} shuffles the other {len(rest)} cards into their deck", cite)
    act.draw(game, p, 5)


def _donate(ctx: Ctx) -> bool:
    """At the start of your next turn, first, put your deck and discard pile into your hand, trash any number of cards from it, then shuffle the rest into your deck and draw 5 cards."""
    p = ctx.player
    act.set_up_later(ctx.game, p, "start_of_turn", "Donate: at the start of your next turn",
                     lambda g, ev: _donate_now(g, p, R("Donate", 1)), None, None, "used", R("Donate", 1))
    return True


def _donate_pre_2021(ctx: Ctx) -> bool:
    """After this turn, put your deck and discard pile into your hand, trash any number of cards from it, then shuffle your hand into your deck and draw 5 cards."""
    p = ctx.player
    cite = R("Donate", 3, "pre-2021")
    act.set_up_later(ctx.game, p, "after_turn", "Donate: after this turn", lambda g, ev: _donate_now(g, p, cite),
                     None, None, "used", cite)
    return True


register_event("Donate", Do(_donate), version="2",
               note="2022: at the start of your next turn, before other start-of-turn abilities (Donate 1)")
register_event("Donate", Do(_donate_pre_2021), version="1", default=False,
               note="pre-2021: after this turn, so not at all if the game ends that turn (Donate 3, 5)")


def _ritual_vp(ctx: Ctx, card: Card, cost: int) -> bool:
    """+1 VP per $1 it cost when it was trashed (Ritual 3)."""
    add_vp(ctx.game, ctx.player, cost, R("Ritual", 3), f" ({card.name} cost ${cost})")
    return True


def _ritual(ctx: Ctx) -> bool:
    """Gain a Curse. If you do, trash a card from your hand. +1 VP per $1 it costs."""
    if act.gain(ctx.game, ctx.player, "Curse", cite=R("Ritual", 4)) is None:
        ctx.log("No Curse was gained, so nothing is trashed", R("Ritual", 1))
        return False
    return TrashForCost(_ritual_vp, R("Ritual", 4)).apply(ctx)


register_event("Ritual", Do(_ritual))


def _salt_the_earth(ctx: Ctx) -> bool:
    """+1 VP. Trash a Victory card from the Supply."""
    g, p = ctx.game, ctx.player
    add_vp(g, p, 1, R("Salt the Earth", 1))
    tops = [pile[-1] for pile in g.supply.values() if pile and pile[-1].is_type("Victory")]
    if not tops:
        ctx.log("There is no Victory card on top of a Supply pile to trash", R("Salt the Earth", 1))
        return False
    pick = ctx.ask(Question(p.name, "trash a Victory card from the Supply", "cards", tops, 1, 1))
    act.trash(g, p, pick, R("Salt the Earth", 2))
    return True


register_event("Salt the Earth", Do(_salt_the_earth))


def _tax_take(cite: dict):
    def run(game: Game, ev: Event) -> None:
        pile = _pile(ev.card)
        n = game.pile_tokens.get(pile, Counter())[debt.TOKEN]
        game.pile_tokens[pile][debt.TOKEN] = 0
        how = "bought" if ev.kind == "when_buy" else "gained"
        game.log.add(f"{ev.player.name} {how} {ev.card.name} in their Buy phase: they take the {n} Debt from its "
                     f"pile", cite)
        debt.take_debt(game, ev.player, n, cite)
    return run


def _debt_on_its_pile(game: Game, ev: Event) -> bool:
    return game.pile_tokens.get(_pile(ev.card), Counter())[debt.TOKEN] > 0


def _tax_applies(game: Game, ev: Event) -> bool:
    c = ev.card
    return (c is not None and game.turn.player == ev.player.index and game.turn.phase in ("buy", "buy2")
            and c in ev.player.all_cards() and _debt_on_its_pile(game, ev))


def _tax_setup(trigger: str, label: str, applies, cite: dict):
    def setup(game: Game) -> None:
        """Setup: Add 1 Debt to each Supply pile."""
        for pile in game.supply:      # a pile whose Debt the scenario states keeps it (as Aqueduct's VP)
            if debt.TOKEN not in game.pile_tokens.get(pile, {}):
                game.pile_tokens.setdefault(pile, Counter())[debt.TOKEN] += 1
        game.log.add(f"Tax is in the game: 1 Debt on each Supply pile ({len(game.supply)} piles)", R("Tax"),
                     narrate.SPECIAL_SETUP)
        if game.players:
            game.later.append(_game_ability(game, trigger, label, _tax_take(cite), applies, cite))
    return setup


def _tax(ctx: Ctx) -> bool:
    """Add 2 Debt to a Supply pile."""
    g, p = ctx.game, ctx.player
    pile = ctx.ask(Question(p.name, "add 2 Debt to a Supply pile", "choice", list(g.supply)))
    g.pile_tokens.setdefault(pile, Counter())[debt.TOKEN] += 2
    ctx.log(f"{p.name} adds 2 Debt to the {pile} pile (now {g.pile_tokens[pile][debt.TOKEN]})", R("Tax"))
    return True


def _game_ability(game: Game, trigger: str, label: str, run, condition, cite: dict):
    return LaterAbility(0, trigger, label, run, None, condition, "game", [cite], anyone=True, by_actor=True)


register_event("Tax", Do(_tax), version="2", setup=_tax_setup(
    "when_gain", "Tax: take the Debt from the gained card's pile", _tax_applies, R("Tax", 1)),
    note="2022: a player takes the Debt when they gain a card in their Buy phase (Tax 1)")
register_event("Tax", Do(_tax), version="1", default=False, setup=_tax_setup(
    "when_buy", "Tax: take the Debt from the bought card's pile", _debt_on_its_pile, R("Tax", 2)),
    note="pre-2022: a player takes the Debt only when they buy a card (Tax 2)")


def _triumph(ctx: Ctx) -> bool:
    """Gain an Estate. If you did, +1 VP per card you've gained this turn."""
    g, p = ctx.game, ctx.player
    if act.gain(g, p, "Estate", cite=R("Triumph", 3)) is None:
        ctx.log("No Estate was gained, so no VP", R("Triumph", 1))
        return False
    n = len(g.turn.gained) if g.turn.player == p.index else 0
    add_vp(g, p, n, R("Triumph", 2), f" ({n} card{'s' if n != 1 else ''} gained this turn)")
    return True


register_event("Triumph", Do(_triumph))


def _wedding(ctx: Ctx) -> bool:
    """+1 VP. Gain a Gold."""
    add_vp(ctx.game, ctx.player, 1, R("Wedding", 1))
    act.gain(ctx.game, ctx.player, "Gold", cite=R("Wedding"))
    return True


register_event("Wedding", Do(_wedding))


def _windfall(ctx: Ctx) -> bool:
    """If your deck and discard pile are empty, gain 3 Golds."""
    p = ctx.player
    if p.deck or p.discard:
        ctx.log(f"{p.name}'s deck or discard pile is not empty: no Golds", R("Windfall"))
        return False
    for _ in range(3):
        act.gain(ctx.game, p, "Gold", cite=R("Windfall"))
    return True


register_event("Windfall", Do(_windfall))


# ------------------------------------------------------------------ Landmarks: when scoring
def _copies(p: Player) -> Counter:
    return Counter(c.name for c in p.all_cards())


def _bandit_fort(game: Game, p: Player) -> int:
    return -2 * sum(1 for c in p.all_cards() if c.name in ("Silver", "Gold"))


def _fountain(game: Game, p: Player) -> int:
    return 15 if _copies(p)["Copper"] >= 10 else 0


def _keep(game: Game, p: Player) -> int:
    mine = {c.name for c in p.all_cards() if c.is_type("Treasure")}
    counts = {q.index: _copies(q) for q in game.players}
    return 5 * sum(1 for n in mine if all(counts[p.index][n] >= counts[q.index][n] for q in game.players))


def _museum(game: Game, p: Player) -> int:
    return 2 * len(_copies(p))


def _obelisk_pile(game: Game) -> str | None:
    return game.__dict__.get("obelisk_pile")


def _obelisk(game: Game, p: Player) -> int:
    pile = _obelisk_pile(game)
    if pile is None:
        return 0
    return 2 * sum(1 for c in p.all_cards() if _pile(c) == pile)


def _obelisk_setup(game: Game) -> None:
    """Setup: Choose a random Action Supply pile (with the scenario's seed)."""
    piles = sorted(n for n, cards in game.supply.items() if cards and cards[-1].is_type("Action"))
    if not piles:
        game.log.add("Obelisk: there is no Action Supply pile to choose", R("Obelisk"))
        return
    game.obelisk_pile = game.rng.choice(piles)
    game.log.add(f"Obelisk's chosen pile: {game.obelisk_pile}", R("Obelisk"), narrate.SPECIAL_SETUP)


def _orchard(game: Game, p: Player) -> int:
    return 4 * sum(1 for n, k in _copies(p).items() if k >= 3 and any(c.name == n and c.is_type("Action")
                                                                         for c in p.all_cards()))


def _palace(game: Game, p: Player) -> int:
    c = _copies(p)
    return 3 * min(c["Copper"], c["Silver"], c["Gold"])


def _tower(game: Game, p: Player) -> int:
    empty = set(game.empty_piles())
    return sum(1 for c in p.all_cards() if not c.is_type("Victory") and _pile(c) in empty)


def _triumphal_arch(game: Game, p: Player) -> int:
    counts = sorted((k for n, k in Counter(c.name for c in p.all_cards() if c.is_type("Action")).items()),
                    reverse=True)
    return 3 * counts[1] if len(counts) > 1 else 0


def _wall(game: Game, p: Player) -> int:
    return -max(0, len(p.all_cards()) - 15)


def _wolf_den(game: Game, p: Player) -> int:
    return -3 * sum(1 for k in _copies(p).values() if k == 1)


for _name, _fn, _setup in (("Bandit Fort", _bandit_fort, None), ("Fountain", _fountain, None), ("Keep", _keep, None),
                           ("Museum", _museum, None), ("Obelisk", _obelisk, _obelisk_setup),
                           ("Orchard", _orchard, None), ("Palace", _palace, None), ("Tower", _tower, None),
                           ("Triumphal Arch", _triumphal_arch, None), ("Wall", _wall, None),
                           ("Wolf Den", _wolf_den, None)):
    register_landmark(Landmark(_name, score=_fn, setup=_setup,
                               shows=(lambda g: f"chosen pile: {_obelisk_pile(g) or 'none'}") if _name == "Obelisk"
                               else None), note="scores at the end of the game")


# ------------------------------------------------------------------ Landmarks: VP tokens during the game
def _gained(pred=None):
    """A when-gain condition: the gained card is still the gainer's (it was gained), and ``pred`` holds."""
    def cond(game: Game, ev: Event) -> bool:
        return ev.card is not None and (pred is None or pred(game, ev))
    return cond


def _your_buy_phase(game: Game, ev: Event) -> bool:
    return game.turn.player == ev.player.index and game.turn.phase in ("buy", "buy2")


def _take(name: str, n: int | None = 2, why: str = "", if_=None, otherwise: str = ""):
    """Take VP from the Landmark; ``if_`` is a "when X, if Y" condition, checked when the ability resolves, not
    when it triggers (TRIGGERED ABILITY 4, § III: Basilica, Colonnade), so what resolves first can change it."""
    def run(game: Game, ev: Event) -> None:
        if if_ is not None and not if_(game, ev):
            game.log.add(f"{name}: {otherwise(game, ev) if callable(otherwise) else otherwise}, so {ev.player.name} "
                         f"takes no VP", {"card": name}, TRIGGERED)
            return
        take_vp(game, ev.player, name, n, why)
    return run


register_landmark(Landmark("Battlefield", tokens_per_player=6, abilities=(
    Ability("when_gain", _take("Battlefield", why=" (gained a Victory card)"),
            _gained(lambda g, ev: ev.card.is_type("Victory"))),)), note="when you gain a Victory card, take 2 VP")


def _two_left(game: Game, ev: Event) -> bool:
    return game.turn.coins >= 2


def _copy_in_play(game: Game, ev: Event) -> bool:
    return any(c.name == ev.card.name for c in ev.player.in_play)


def _pool(game: Game, ev: Event) -> str:
    return f"the money pool has ${game.turn.coins}, not $2 or more"


def _no_copy(game: Game, ev: Event) -> str:
    return f"{ev.player.name} has no copy of {ev.card.name} in play"


# Basilica and Colonnade: 2022 when-gain in your Buy phase (Basilica 1, Colonnade 1); pre-2022 when-buy, so gaining
# a card in another way, even in the Buy phase, does nothing (Basilica 5, Colonnade 8)
register_landmark(Landmark("Basilica", tokens_per_player=6, abilities=(
    Ability("when_gain", _take("Basilica", why=" (gained a card in their Buy phase with $2 or more)", if_=_two_left,
                               otherwise=_pool), _gained(_your_buy_phase)),)), version="2",
    note="2022: when you gain a card in your Buy phase with $2 or more left, take 2 VP")
register_landmark(Landmark("Basilica", tokens_per_player=6, abilities=(
    Ability("when_buy", _take("Basilica", why=" (bought a card with $2 or more left)", if_=_two_left,
                              otherwise=_pool)),),
    says="When you buy a card, if you have $2 or more left, take 2 VP from here (Basilica 5: not when you gain "
         "a card in another way, nor when you buy an Event) ----- Setup: Put 6 VP here per player"),
    version="1", default=False, note="pre-2022: when you buy a card")
register_landmark(Landmark("Colonnade", tokens_per_player=6, abilities=(
    Ability("when_gain", _take("Colonnade", why=" (gained an Action card with a copy in play)", if_=_copy_in_play,
                               otherwise=_no_copy),
            _gained(lambda g, ev: _your_buy_phase(g, ev) and ev.card.is_type("Action"))),)), version="2",
    note="2022: when you gain an Action card in your Buy phase with a copy in play, take 2 VP")
register_landmark(Landmark("Colonnade", tokens_per_player=6, abilities=(
    Ability("when_buy", _take("Colonnade", why=" (bought an Action card with a copy in play)", if_=_copy_in_play,
                              otherwise=_no_copy), lambda g, ev: ev.card.is_type("Action")),),
    says="When you buy an Action card, if you have a copy of it in play, take 2 VP from here (Colonnade 8: not "
         "when you gain one in another way) ----- Setup: Put 6 VP here per player"),
    version="1", default=False, note="pre-2022: when you buy an Action card")
register_landmark(Landmark("Labyrinth", tokens_per_player=6, abilities=(
    Ability("when_gain", _take("Labyrinth", why=" (their 2nd card gained this turn)"),
            _gained(lambda g, ev: g.turn.player == ev.player.index and len(g.turn.gained) == 2
                    and g.turn.gained[-1] is ev.card)),)),
    note="when you gain your 2nd card in one of your turns, take 2 VP")
register_landmark(Landmark("Baths", tokens_per_player=6, abilities=(
    Ability("end_of_turn", _take("Baths", why=" (ended their turn without gaining a card)"),
            lambda g, ev: ev.player.index == g.turn.player and not g.turn.gained),)),
    note="when you end your turn without having gained a card, take 2 VP")


def _arena(game: Game, ev: Event) -> None:
    """At the start of your Buy phase, you may discard an Action card. If you do, take 2 VP from here."""
    p = ev.player
    actions = [c for c in p.hand if c.is_type("Action")]
    if not actions:
        return
    pick = game.decider.ask(Question(p.name, "discard an Action card for Arena?", "cards", actions, 0, 1))
    if not pick:
        game.log.add(f"{p.name} discards no Action card for Arena", R("Arena"))
        return
    act.discard(game, p, pick, R("Arena", 1))
    take_vp(game, p, "Arena", 2, " (discarded an Action card)")


register_landmark(Landmark("Arena", tokens_per_player=6, abilities=(
    Ability("start_of_buy_phase", _arena, lambda g, ev: ev.player.index == g.turn.player),)),
    note="at the start of your Buy phase, you may discard an Action card to take 2 VP")


def _mountain_pass(game: Game, ev: Event) -> None:
    """When you are the first player to gain a Province, each player bids once, up to 40 Debt, ending with you. High bidder gets +8 VP and takes the Debt they bid."""
    game.mountain_pass_done = True
    _bids(game, ev.player, R("Mountain Pass", 3))


def _bids(game: Game, gainer: Player, cite: dict) -> None:
    order = game.in_turn_order(gainer.index)[1:] + [gainer]        # the player to the left first (Mountain Pass 2)
    best, high = 0, None
    for q in order:
        options = ["pass"] + [str(n) for n in range(best + 1, 41)]
        bid = game.decider.ask(Question(q.name, "bid Debt for Mountain Pass (higher than the last bid), or pass",
                                        "choice", options))
        if bid == "pass":
            game.log.add(f"{q.name} passes", R("Mountain Pass", 2))
            continue
        best, high = int(bid), q
        game.log.add(f"{q.name} bids {best} Debt", R("Mountain Pass", 2))
    if high is None:
        game.log.add("Nobody bids: nobody gets the 8 VP", R("Mountain Pass"))
        return
    add_vp(game, high, 8, R("Mountain Pass"), " (Mountain Pass: the high bid)")
    debt.take_debt(game, high, best, cite)


def _first_province(game: Game, ev: Event) -> bool:
    return ev.card is not None and ev.card.name == "Province" and not game.__dict__.get("mountain_pass_done")


def _mountain_pass_after_turn(game: Game, ev: Event) -> None:
    """Pre-2021: the bids come after that turn, an after-turn ability (Mountain Pass 6), so not at all if the game
    ended that turn (Mountain Pass 8: game end is checked before after-turn abilities)."""
    game.mountain_pass_done = True
    gainer = ev.player
    game.log.add(f"{gainer.name} is the first player to gain a Province: Mountain Pass's bids come after this turn",
                 R("Mountain Pass", 6, "pre-2021"))
    game.later.append(LaterAbility(gainer.index, "after_turn", "Mountain Pass: the bids after the turn",
                                   lambda g, e: _bids(g, gainer, R("Mountain Pass", 6, "pre-2021")), None, None,
                                   "used", [R("Mountain Pass", 6, "pre-2021")], anyone=True))


register_landmark(Landmark("Mountain Pass", abilities=(Ability("when_gain", _mountain_pass, _first_province),)),
                  version="2", note="2022: the bids come right when the first Province is gained (Mountain Pass 3)")
register_landmark(Landmark("Mountain Pass", abilities=(
    Ability("when_gain", _mountain_pass_after_turn, _first_province),),
    says="When you are the first player to gain a Province, after that turn, each player bids once, up to 40 Debt, "
         "ending with you. High bidder gets +8 VP and takes the Debt they bid (Mountain Pass 6, 8)"),
    version="1", default=False, note="pre-2021: the bids come after that turn")


def _tomb(game: Game, ev: Event) -> None:
    add_vp(game, ev.player, 1, R("Tomb"), f" (trashed {ev.card.name})")


register_landmark(Landmark("Tomb", abilities=(Ability("when_trash", _tomb, lambda g, ev: ev.card is not None),)),
                  note="when you trash a card, +1 VP")


def _aqueduct_setup(game: Game) -> None:
    """Setup: Put 8 VP on the Silver and Gold piles (unless the scenario already put some there)."""
    for pile in ("Silver", "Gold"):
        if pile in game.supply and PILE_VP not in game.pile_tokens.get(pile, {}):
            add_pile_vp(game, pile, 8, R("Aqueduct"), " (Aqueduct's setup)")


def _move_from_pile(landmark: str):
    """When-gain: move 1 VP from the gained card's pile to the Landmark (Aqueduct, Defiled Shrine)."""
    def run(game: Game, ev: Event) -> None:
        pile = _pile(ev.card)
        if pile_vp(game, pile) < 1:
            game.log.add(f"There are no VP tokens on the {pile} pile to move onto {landmark}", R(landmark))
            return
        game.pile_tokens[pile][PILE_VP] -= 1
        add_tokens(game, landmark, 1, f" from the {pile} pile")
    return run


def _aqueduct_victory(game: Game, ev: Event) -> None:
    take_vp(game, ev.player, "Aqueduct", None, " (gained a Victory card)")


register_landmark(Landmark("Aqueduct", setup=_aqueduct_setup, abilities=(
    Ability("when_gain", _move_from_pile("Aqueduct"), _gained(lambda g, ev: ev.card.is_type("Treasure"))),
    Ability("when_gain", _aqueduct_victory, _gained(lambda g, ev: ev.card.is_type("Victory"))))),
    note="gaining a Treasure moves 1 VP from its pile to Aqueduct; gaining a Victory card takes them")


def _shrine_setup(game: Game) -> None:
    """Setup: Put 2 VP on each non-Gathering Action Supply pile."""
    for pile, cards in game.supply.items():
        top = cards[-1] if cards else None
        if top is not None and top.is_type("Action") and not top.is_type("Gathering") \
                and PILE_VP not in game.pile_tokens.get(pile, {}):
            add_pile_vp(game, pile, 2, R("Defiled Shrine"), " (Defiled Shrine's setup)")


def _shrine_curse(game: Game, ev: Event) -> None:
    how = "bought a Curse" if ev.kind == "when_buy" else "gained a Curse in their Buy phase"
    take_vp(game, ev.player, "Defiled Shrine", None, f" ({how})")


def _shrine_action(game: Game, ev: Event) -> bool:
    return ev.card is not None and ev.card.is_type("Action") and pile_vp(game, _pile(ev.card)) > 0


register_landmark(Landmark("Defiled Shrine", setup=_shrine_setup, abilities=(
    Ability("when_gain", _move_from_pile("Defiled Shrine"), _shrine_action),
    Ability("when_gain", _shrine_curse, _gained(lambda g, ev: ev.card.name == "Curse" and _your_buy_phase(g, ev))))),
    version="2", note="2022: gaining an Action moves 1 VP from its pile to Defiled Shrine; gaining a Curse in your "
                      "Buy phase takes them")
register_landmark(Landmark("Defiled Shrine", setup=_shrine_setup, abilities=(
    Ability("when_gain", _move_from_pile("Defiled Shrine"), _shrine_action),
    Ability("when_buy", _shrine_curse, lambda g, ev: ev.card.name == "Curse")),
    says="When you gain an Action, move 1 VP from its pile to this. When you buy a Curse, take the VP from this "
         "(Defiled Shrine 6: not when you gain a Curse in another way) ----- Setup: Put 2 VP on each "
         "non-Gathering Action Supply pile"),
    version="1", default=False, note="pre-2022: when you buy a Curse")


