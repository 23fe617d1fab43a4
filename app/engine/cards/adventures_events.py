"""Adventures: the 20 Events (bought, never gained: events.py) and the player tokens they move (player_tokens.py).

Each Event's buy ability follows its text in the card facts and cites its Card
Reference entry; the versions that changed in 2022 (Bonfire, Plan) are selectable as
for cards ('1' = before 2022), and so is Inheritance ('1' = before 2019: your Estates have the
card's abilities and types). Rules of the tokens themselves live in player_tokens.py.
"""
from __future__ import annotations

from app.engine.core.narrate import R
from app.engine.core import activities as act
from app.engine.core import narrate
from app.engine.core.costs import costs_up_to
from app.engine.core.decisions import Question
from app.engine.core.effects import (ChooseFromHand, ChooseOne, Ctx, Do, Gain, PlusBuys, PlusCoins, Sequence,
                                     both, of_type, put_back_in_any_order)
from app.engine.core.state import Card, LaterAbility
from app.engine.core.turns import grant_extra_turn, consecutive_turns
from app.engine.mechanisms import player_tokens as tok
# the pre-2019 Estate token's other abilities (when-buy, when-gain, ..., Reactions) register on import
from app.engine.mechanisms import estate_token_pre_2019  # noqa: F401
from app.engine.mechanisms.events import register_event
from app.engine.mechanisms.ongoing import move_gained, set_up_this_turn

IN_PLAY = narrate.CARDS_IN_PLAY


def up_to(n: int):
    """"costing up to $n": no Potion or Debt in its cost (CARD COSTS § VI)."""
    return lambda ctx, c: costs_up_to(c, n)


def _choose_pile(ctx: Ctx, token: str, cite: dict) -> bool:
    """Choose an Action Supply pile (empty ones too) and move the token there (ADVENTURES TOKENS § IV)."""
    g, p = ctx.game, ctx.player
    piles = [n for n in g.supply if tok.is_action_supply_pile(g, n)]
    if not piles:
        ctx.log(f"There is no Action Supply pile for {p.name}'s {token} token", narrate.DO_AS_MUCH)
        return False
    pile = ctx.ask(Question(p.name, f"move your {token} token to an Action Supply pile", "choice", piles))
    tok.move_token(g, p, token, pile, cite)
    return True


def move_token_event(name: str, token: str) -> Do:
    def run(ctx: Ctx) -> bool:
        return _choose_pile(ctx, token, R(name))
    run.__doc__ = f"Move your {token} token to an Action Supply pile of your choice"
    return Do(run)


# ------------------------------------------------------------------ the token Events
register_event("Lost Arts", move_token_event("Lost Arts", tok.PLUS_ACTION))
register_event("Pathfinding", move_token_event("Pathfinding", tok.PLUS_CARD))
register_event("Training", move_token_event("Training", tok.PLUS_COIN))
register_event("Ferry", move_token_event("Ferry", tok.MINUS_COST))
register_event("Plan", move_token_event("Plan", tok.TRASHING), version="2",
               note="2022: the Trashing token works when you gain a card from its pile")
register_event("Plan", move_token_event("Plan", tok.TRASHING), version="1", default=False,
               note="pre-2022: the Trashing token works only when you buy a card from its pile")


def _seaway(ctx: Ctx) -> bool:
    """Gain an Action card costing up to $4; if you did, move your +1 Buy token to its pile.

    Seaway 1: only the cost when gaining matters; Seaway 3: no gain, no token move.
    """
    got = Gain(filter=both(of_type("Action"), up_to(4)), describe="an Action card costing up to $4",
               cite=R("Seaway", 1)).apply(ctx)
    card = ctx.vars.get("gained")
    if not got or card is None:
        ctx.log(f"{ctx.player.name} gained no card, so their +1 Buy token does not move", R("Seaway", 3))
        return False
    tok.move_token(ctx.game, ctx.player, tok.PLUS_BUY, tok.pile_of(card), R("Seaway", 1),
                   why=" (the pile of the card just gained)")
    return True


register_event("Seaway", Do(_seaway))


# ------------------------------------------------------------------ gaining Events
def _alms(ctx: Ctx) -> bool:
    """If you have no Treasures in play, gain a card costing up to $4."""
    treasures = [c for c in ctx.player.in_play if c.is_type("Treasure")]
    if treasures:
        ctx.log(f"{ctx.player.name} has {act.names(treasures)} in play, so Alms gains nothing", R("Alms", 1), IN_PLAY)
        return False
    return Gain(filter=up_to(4), describe="a card costing up to $4", cite=R("Alms", 2)).apply(ctx)


register_event("Alms", Do(_alms), once="turn")


def _ball(ctx: Ctx) -> bool:
    """Take your -$1 token, then gain 2 cards each costing up to $4, one after the other."""
    tok.take_minus_coin(ctx.game, ctx.player, R("Ball"))
    gain = Gain(filter=up_to(4), describe="a card costing up to $4", cite=R("Ball", 2))
    gain.apply(ctx)        # one at a time: what the first gain changes applies to the second (Ball 2)
    gain.apply(ctx)
    return True


register_event("Ball", Do(_ball))


def _raid(ctx: Ctx) -> bool:
    """Gain a Silver per Silver you have in play; each other player puts their -1 Card token on their deck."""
    g, p = ctx.game, ctx.player
    silvers = sum(1 for c in p.in_play if c.name == "Silver")
    ctx.log(f"{p.name} has {silvers} Silver{'s' if silvers != 1 else ''} in play", R("Raid", 1), IN_PLAY)
    for _ in range(silvers):
        act.gain(g, p, "Silver", cite=R("Raid", 1))
    ctx.log("Buying Raid is not playing an Attack: no one may reveal a Reaction to it", R("Raid", 2))
    for q in g.others(p):
        tok.put_minus_card(g, q, R("Raid"))
    return True


register_event("Raid", Do(_raid))


def _trade(ctx: Ctx) -> bool:
    """Trash up to 2 cards from your hand, then gain a Silver per card trashed."""
    ChooseFromHand("trash", 0, 2, store="traded", describe="up to 2 cards", cite=R("Trade")).apply(ctx)
    for _ in ctx.vars.get("traded") or []:
        act.gain(ctx.game, ctx.player, "Silver", cite=R("Trade"))
    return True


register_event("Trade", Do(_trade))


def _pilgrimage(ctx: Ctx) -> bool:
    """Turn your Journey token over; if it is now face up, gain a copy of each of up to 3 differently named cards you have in play."""
    g, p = ctx.game, ctx.player
    if not tok.turn_journey(g, p, R("Pilgrimage", 1)):
        ctx.log("It is face down, so nothing more happens", R("Pilgrimage"))
        return False
    one_each: dict[str, Card] = {}
    for c in p.in_play:
        one_each.setdefault(c.name, c)
    if not one_each:
        ctx.log(f"{p.name} has no cards in play", R("Pilgrimage", 2))
        return False
    # first choose the cards, then gain a copy of each in the order the answer lists them (Pilgrimage 4)
    chosen = ctx.ask(Question(p.name, "choose up to 3 differently named cards you have in play, in the order to "
                                      "gain a copy of each", "cards", list(one_each.values()), 0, 3))
    ctx.log(f"{p.name} chooses {act.names(chosen)}", R("Pilgrimage", 2), R("Pilgrimage", 4))
    for c in chosen:
        act.gain(g, p, c.name, cite=R("Pilgrimage", 5) if not g.supply.get(c.name) else R("Pilgrimage", 3))
    return True


register_event("Pilgrimage", Do(_pilgrimage), once="turn")


def _quest(ctx: Ctx) -> bool:
    """You may discard an Attack, two Curses or six cards; if you discarded all of them, gain a Gold."""
    p = ctx.player

    def discard(what: str, pred, n: int):
        def run(c: Ctx) -> bool:
            options = [x for x in p.hand if pred(x)]
            k = min(n, len(options))
            chosen = c.ask(Question(p.name, f"discard {what}", "cards", options, k, k)) if k else []
            if chosen:
                act.discard(c.game, p, chosen, R("Quest", 2))
            if len(chosen) < n:
                c.log(f"{p.name} could only discard {len(chosen)} of {n}, so they gain no Gold", R("Quest", 2))
                return False
            return act.gain(c.game, p, "Gold", cite=R("Quest", 2)) is not None
        return Do(run)

    return ChooseOne({"discard an Attack": discard("an Attack card", lambda x: x.is_type("Attack"), 1),
                      "discard two Curses": discard("two Curses", lambda x: x.name == "Curse", 2),
                      "discard six cards": discard("six cards", lambda x: True, 6),
                      "discard nothing": Do(lambda c: False)}).apply(ctx)


register_event("Quest", Do(_quest))


# ------------------------------------------------------------------ +Buy Events
def _borrow(ctx: Ctx) -> bool:
    """If your -1 Card token isn't on your deck, put it there and +$1."""
    if tok.tokens(ctx.game, ctx.player).minus_card:
        ctx.log(f"{ctx.player.name}'s -1 Card token is already on their deck, so no +$1", R("Borrow"))
        return False
    tok.put_minus_card(ctx.game, ctx.player, R("Borrow"))
    return PlusCoins(1, cite=R("Borrow")).apply(ctx)


register_event("Borrow", Sequence(PlusBuys(1), Do(_borrow)), once="turn")


def _save(ctx: Ctx) -> bool:
    """Set aside a card from your hand face down; put it into your hand at the end of the turn, after drawing."""
    g, p = ctx.game, ctx.player
    chosen = ctx.ask(Question(p.name, "set aside a card from your hand", "cards", list(p.hand), 1, 1)) if p.hand else []
    if not chosen:
        ctx.log(f"{p.name} has no card in hand to set aside", narrate.DO_AS_MUCH)
        return False
    card = chosen[0]
    g.move(card, "set_aside", owner=p.index)
    ctx.log(f"{p.name} sets aside a card from their hand face down", R("Save", 2))
    ref = g.ref(card)

    def back(game, ev, p=p, card=card, ref=ref) -> None:
        if ref.valid():
            act.to_hand(game, p, card, R("Save"))

    # at end of turn, after drawing the next hand (activities.end_turn fires it after Clean-up's draw)
    g.later.append(LaterAbility(p.index, "end_of_turn", "Save: put the set-aside card into your hand", back,
                                None, lambda game, ev, t=g.turn: game.turn is t, "used", [R("Save")]))
    return True


register_event("Save", Sequence(PlusBuys(1), Do(_save)), once="turn")


def _scouting_party(ctx: Ctx) -> bool:
    """Look at the top 5 cards of your deck, discard 3 of them and put the rest back in any order."""
    g, p = ctx.game, ctx.player
    seen = act.reveal_top(g, p, 5, verb="looks at")
    k = min(3, len(seen))
    out = ctx.ask(Question(p.name, "discard 3 of the cards you looked at", "cards", list(seen), k, k)) if k else []
    act.discard(g, p, out, R("Scouting Party", 1))
    rest = [c for c in seen if c not in out]
    put_back_in_any_order(ctx, rest, R("Scouting Party", 1))
    return True


register_event("Scouting Party", Sequence(PlusBuys(1), Do(_scouting_party)))


def _fair_gain(game, ev) -> None:
    p = ev.player
    if game.decider.ask(Question(p.name, f"put the gained {ev.card.name} onto your deck (Travelling Fair)?",
                                 "yesno", [])):
        move_gained(game, p, ev, "deck", R("Travelling Fair", 2))


def _travelling_fair(ctx: Ctx) -> bool:
    """This turn, when you gain a card, you may put it onto your deck."""
    g, p = ctx.game, ctx.player
    if any(la.label == "Travelling Fair" and la.owner == p.index for la in g.later):
        # a second one could only offer the same optional move again, which the lose-track rule stops
        ctx.log("Travelling Fair's when-gain ability is already set up this turn", R("Travelling Fair", 2))
        return True
    set_up_this_turn(g, p, "when_gain", "Travelling Fair", _fair_gain, cite=R("Travelling Fair", 2))
    return True


register_event("Travelling Fair", Sequence(PlusBuys(2), Do(_travelling_fair)))


# ------------------------------------------------------------------ the rest
def _expedition(ctx: Ctx) -> bool:
    """Draw 2 extra cards in this turn's Clean-up."""
    t = ctx.game.turn
    t.cleanup_draw += 2
    ctx.log(f"In this turn's Clean-up, {ctx.player.name} draws 2 more cards ({t.cleanup_draw})", R("Expedition", 1))
    return True


register_event("Expedition", Do(_expedition))


def _bonfire(only_coppers: bool):
    def run(ctx: Ctx) -> bool:
        """Trash up to 2 cards you have in play."""
        p = ctx.player
        options = [c for c in p.in_play if c.name == "Copper" or not only_coppers]
        what = "Coppers" if only_coppers else "cards"
        chosen = ctx.ask(Question(p.name, f"trash up to 2 {what} you have in play", "cards", options, 0,
                                  min(2, len(options)))) if options else []
        if not chosen:
            ctx.log(f"{p.name} trashes nothing", R("Bonfire", 1))
            return False
        act.trash(ctx.game, p, chosen, R("Bonfire", 2 if only_coppers else 1))
        return True
    if only_coppers:
        run.__doc__ = "Trash up to 2 Coppers you have in play."
    return Do(run)


register_event("Bonfire", _bonfire(True), version="2", note="2022: only Coppers")
register_event("Bonfire", _bonfire(False), version="1", default=False, note="pre-2022: any cards you have in play")


def _mission(ctx: Ctx) -> bool:
    """If the previous turn wasn't yours, take an extra turn after this one, in which you can't buy cards."""
    g, p = ctx.game, ctx.player
    if consecutive_turns(g) >= 2:
        ctx.log("The previous turn was theirs, so Mission gives no extra turn", R("Mission", 2))
        return False
    # extra turns are taken in the order granted (Outpost 4 lets the player choose; choice made, see the
    # audit): the Mission turn is the one after this player's extra turns already queued
    ahead = [sum(1 for i in g.extra_turns if i == p.index)]
    grant_extra_turn(g, p, R("Mission", 2), checked=True)

    def no_buying(game, ev, p=p) -> None:
        act.set_up_later(game, p, "cannot_buy", "Mission: no buying cards during this extra turn (Events may be "
                         "bought)", lambda g2, e2: None, condition=lambda g2, name: True, cite=R("Mission", 1))

    def is_mission_turn(game, ev, ahead=ahead) -> bool:
        if not ev.data.get("extra", False):
            return False
        ahead[0] -= 1
        return ahead[0] < 0

    g.later.append(LaterAbility(p.index, "turn_begins", "Mission's extra turn", no_buying, None,
                                is_mission_turn, "used", [R("Mission", 1)]))
    return True


register_event("Mission", Do(_mission), once="turn")


def _inheritance(ctx: Ctx) -> bool:
    """Set aside a non-Command Action card costing up to $4 from the Supply, with your Estate token on it.

    The Complete Rules exclude only Command cards (Inheritance 5: "changed so that it can't set aside a Command
    card") and list your Estate token (2019) among the cards that play a Duration while leaving it (PLAY A CARD
    WHILE LEAVING IT § VI, "With Durations"); the card facts' text adds "non-Duration". The Complete Rules win.
    """
    g, p = ctx.game, ctx.player
    tops = [pile[-1] for pile in g.supply.values()
            if pile and pile[-1].is_type("Action") and not pile[-1].is_type("Command") and costs_up_to(pile[-1], 4)]
    if not tops:
        ctx.log("There is no non-Command Action card costing up to $4 in the Supply", narrate.DO_AS_MUCH)
        return False
    card = ctx.ask(Question(p.name, "set aside a non-Command Action card costing up to $4 from the Supply", "cards",
                            tops, 1, 1))[0]
    tok.set_estate_token(g, p, card, R("Inheritance", 2))
    return True


def _inheritance_pre_2019(ctx: Ctx) -> bool:
    """Pre-2019: set aside a non-Victory Action card costing up to $4 from the Supply, with your Estate token on it;
    your Estates have its abilities and types (Adventures rulebook, Inheritance; Your Estate token pre-2019 1)."""
    g, p = ctx.game, ctx.player
    tops = [pile[-1] for pile in g.supply.values()
            if pile and pile[-1].is_type("Action") and not pile[-1].is_type("Victory") and costs_up_to(pile[-1], 4)]
    if not tops:
        ctx.log("There is no non-Victory Action card costing up to $4 in the Supply", narrate.DO_AS_MUCH)
        return False
    card = ctx.ask(Question(p.name, "set aside a non-Victory Action card costing up to $4 from the Supply", "cards",
                            tops, 1, 1))[0]
    tok.set_estate_token(g, p, card, R("Inheritance", 2))
    return True


register_event("Inheritance", Do(_inheritance), once="game", version="2", note="2019/2022: during your turns, "
               "every Estate plays the card with your Estate token")
register_event("Inheritance", Do(_inheritance_pre_2019), once="game", version="1", default=False,
               note="pre-2019: your Estates have the abilities and types of the set-aside card")
