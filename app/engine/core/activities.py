"""The player activities as one vocabulary: draw, move from deck, gain, buy, trash, discard,
reveal, set aside, put onto deck, play, and the turn's phases.

Each activity moves cards only through ``Game.move``, narrates what happened
with a citation, and fires the triggers the rules attach to it.
"""
from __future__ import annotations

from typing import Callable

from app.engine.core import hooks, narrate
from app.engine.core.decisions import resolving
from app.engine.core.errors import EngineLimitError, IllegalAction
from app.engine.core.state import Card, Game, LaterAbility, Player, Ref
from app.engine.core.triggers import Event, attack_window, fire, fire_together


def names(cards: list[Card]) -> str:
    return ", ".join(c.name for c in cards) if cards else "nothing"


# ---------------------------------------------------------------- deck
def shuffled(game: Game, p: Player, cards: list[Card]) -> list[Card]:
    """The order ``cards`` take when ``p`` shuffles them, top first: random, except that a mechanism may let the
    player pick one to go on top of them (Star Chart, registered in ``hooks``). Every shuffle of a player's cards
    goes through here: the discard pile when the deck runs short, and a deck shuffled by a card (Inn, Famine)."""
    order = list(cards)
    game.rng.shuffle(order)
    top = hooks.picked_on_top(game, p, order) if len(order) > 1 else None
    if top is not None:
        order.remove(top)
        order.insert(0, top)
    return order


def shuffle(game: Game, p: Player) -> None:
    """Shuffle the discard pile and put it under the deck (§ III Moving cards from your deck)."""
    cards = shuffled(game, p, p.discard)
    for c in cards:
        game.move(c, "deck", top=False)
    game.log.add(f"{p.name} shuffles their discard pile ({len(cards)} card{'s' if len(cards) != 1 else ''}) and puts it "
                 "under their deck", narrate.MOVING_FROM_DECK)


def shuffle_deck(game: Game, p: Player) -> None:
    """Shuffle the deck itself, after cards were put into it (Inn, Famine): no card moves, only the order."""
    p.deck[:] = shuffled(game, p, p.deck)


def from_deck(game: Game, p: Player, n: int, to: str, source: Card | None = None) -> list[Card]:
    """Take up to ``n`` cards from the top of the deck, shuffling only when the deck runs short.

    Cards already set aside or revealed are not in the discard pile, so they
    are never shuffled in.
    """
    if len(p.deck) < n and p.discard:
        shuffle(game, p)
    taken = p.deck[:n]
    for c in taken:
        game.move(c, to)
        if to == "set_aside" and source is not None:
            c.set_aside_by = source.id
    return taken


# Mechanisms that change how many cards an instruction to draw draws (the -1 Card token, player_tokens.py):
# each is ``hook(game, player, n) -> n``, applied before anything moves.
DRAW_HOOKS: list[Callable[[Game, Player, int], int]] = []


def told_to_draw(game: Game, p: Player, n: int) -> int:
    """An instruction to draw ``n`` cards: how many are actually drawn after the DRAW_HOOKS (-1 Card token)."""
    for hook in DRAW_HOOKS:
        n = hook(game, p, n)
    return n


def draw_to(game: Game, p: Player, x: int) -> list[Card]:
    """Draw until you have ``x`` cards in hand (Watchtower, Jack of All Trades).

    "Cards that draw to x cards will first remove your [-1 Card] token, then draw to x cards. However, if
    you already have x cards in hand, they won't remove your token" (Your -1 Card token 2).
    """
    if len(p.hand) >= x:
        return draw(game, p, 0)
    if told_to_draw(game, p, x - len(p.hand)) < x - len(p.hand):
        game.log.add(f"…and {p.name} still draws until they have {x} cards in hand",
                     {"card": "Your -1 Card token", "ruling": 2})
    return draw(game, p, x - len(p.hand), hooks=False)


def draw(game: Game, p: Player, n: int, hooks: bool = True) -> list[Card]:
    if hooks:
        n = told_to_draw(game, p, n)
    got = from_deck(game, p, n, "hand")
    if n:
        short = f" (only {len(got)} could be drawn)" if len(got) < n else ""
        game.log.add(f"{p.name} draws {len(got)} card{'s' if len(got) != 1 else ''}: {names(got)}{short}",
                     narrate.DO_AS_MUCH if short else {})
    return got


def reveal_top(game: Game, p: Player, n: int, verb: str = "reveals") -> list[Card]:
    got = from_deck(game, p, n, "revealed")
    game.log.add(f"{p.name} {verb} the top {n} card{'s' if n != 1 else ''} of their deck: {names(got)}",
                 narrate.REVEALING)
    if verb == "reveals":
        revealed(game, p, got)
    return got


def revealed(game: Game, p: Player, cards: list[Card]) -> None:
    """Something made ``p`` reveal ``cards`` (an instruction using the word "reveal": from the deck, a hand, a
    discard pile): each card's own when-revealed ability triggers (Patron 1, 4). Looking at, discarding or
    trashing a card is not revealing it (Patron 3), so only the instructions that say "reveal" call this."""
    from app.engine.core.registry import definition

    for c in list(cards):
        d = definition(game, c.name)
        if d is not None and "when_reveal" in d.hooks:
            fire(game, Event("when_reveal", p, c))


# ---------------------------------------------------------------- gain / buy
def gain(game: Game, p: Player, what: str | Card, to: str = "discard", cite: dict | None = None,
         verb: str = "gains", bought: bool = False) -> Card | None:
    """Gain a card (from its Supply pile, or a given instance e.g. from the trash) to ``to``.

    When-would-gain abilities may change the destination before the move;
    when-gain abilities resolve after the card is at its destination (§ III).
    """
    if isinstance(what, Card):
        card = what
    else:
        pile = game.supply.get(what)
        if not pile:
            game.log.add(f"{p.name} cannot gain {what}: its Supply pile is empty" if pile is not None
                         else f"{p.name} cannot gain {what}: not in the Supply", narrate.DO_AS_MUCH)
            return None
        card = pile[-1]
    ev = Event("when_would_gain", p, card, {"to": to})
    fire(game, ev)
    if ev.data.get("replaced"):
        # a when-would-gain ability gained something else instead (pre-2020 Trader 14): this gain never happens
        return None
    to = ev.data["to"]
    game.move(card, to, owner=p.index)
    if p.index == game.turn.player:
        # the turn records what *its player* gained (Smugglers 3: "that the player to your right gained on
        # their last turn"; Treasury 1: "you ... gain ... in your Buy phase"), not what others gained meanwhile
        game.turn.gained.append(card)
        if game.turn.phase in ("buy", "buy2"):
            game.turn.gained_in_buy.append(card)
    if bought:      # the card gained because it was bought (Hoard 2022: "if you bought it")
        game.turn.bought.append(card)
    where = {"discard": "", "hand": " to their hand", "deck": " onto their deck"}.get(
        to, f" to {narrate.zone_words(to)}" if to != "set_aside" else ", setting it aside")
    game.log.add(f"{p.name} {verb} {card.name}{where}", cite or narrate.GAINING)
    fire(game, Event("when_gain", p, card, {"to": to, "bought": bought}))
    return card


def pile_named(game: Game, name: str) -> str:
    """The Supply pile ``name`` means: a pile's name, or the name of the card on top of a pile whose cards have
    other names (a split pile: Settlers on top of Settlers/Bustling Village; a Castle; a Knight)."""
    if name in game.supply:
        return name
    return next((n for n, pile in game.supply.items() if pile and pile[-1].name == name), name)


def buy(game: Game, p: Player, name: str) -> Card | None:
    t = game.turn
    if t.phase not in ("action", "buy", "buy2"):
        raise IllegalAction(f"cannot buy in the {narrate.phase_words(t.phase)}")
    said, name = name, pile_named(game, name)
    legal = buyable(game)
    if name not in legal:
        why = ("no Buys left" if t.buys < 1 else
               f"{name} is not in the Supply" if name not in game.supply else
               f"the {name} pile is empty" if not game.supply[name] else
               f"{name} costs {game.supply[name][-1].cost} and you have {t.coins}" if
               game.supply[name][-1].cost > t.coins else _blocked(game, name))
        raise IllegalAction(f"cannot buy {said}: {why}", legal)
    card = game.supply[name][-1]
    pay_for_a_buy(game, card.cost)
    game.log.add(f"{p.name} buys {said} for ${card.cost} (money pool now ${t.coins}, Buys left {t.buys})",
                 narrate.BUY_PHASE)
    hooks.pay_rest(game, card)   # the rest of its cost (a Potion: potions.py) is paid by the mechanisms that add it
    fire(game, Event("when_buy", p, card, {"cost": card.cost}))   # the cost when bought (Talisman 3)
    return gain(game, p, name, bought=True)


def _blocked(game: Game, name: str) -> str | None:
    """Why this card can't be bought now (no Potion for a Potion cost; Grand Market, Contraband): the
    mechanisms that restrict buying register their checks in ``hooks``."""
    return hooks.why_not_buyable(game, name, game.supply[name][-1])


def buyable(game: Game) -> list[str]:
    t = game.turn
    if t.buys < 1 or t.phase not in ("action", "buy", "buy2"):
        return []
    return [n for n, pile in game.supply.items() if pile and pile[-1].cost <= t.coins and _blocked(game, n) is None]


# ---------------------------------------------------------------- trash / discard / misc moves
def trash(game: Game, p: Player, cards: list[Card], cite: dict | None = None) -> list[Card]:
    """Trash several cards at once, then resolve when-trash abilities (§ III)."""
    owners = {c.id: c.owner for c in cards}     # whose card it was ("one of your cards is trashed": Market Square)
    for c in cards:
        game.move(c, "trash")
    if cards:
        game.log.add(f"{p.name} trashes {names(cards)}", cite or {})
        # all trashed first, then their when-trash abilities in any order (Triggered ability, when-trash, § VI)
        fire_together(game, [Event("when_trash", p, c, {"owner": owners[c.id]}) for c in cards])
    return cards


def discard(game: Game, p: Player, cards: list[Card], cite: dict | None = None, what: str = "") -> list[Card]:
    """Discard several cards at once, then resolve when-discard abilities (§ III).

    The event says where each card was discarded from (``data['from']``): "when you discard it from play"
    (Scheme) is not "when you discard it from your hand".
    """
    came_from = {c.id: c.zone for c in cards}
    for c in cards:
        game.move(c, "discard", owner=p.index)
    if cards:
        game.log.add(f"{p.name} discards {what or names(cards)}", cite or narrate.DISCARDING)
        # all discarded first, then their when-discard abilities in the order the player chooses (Faithful Hound 5).
        # "together"/"from_each": the cards this one was discarded with (Travellers exchanged in Clean-up)
        fire_together(game, [Event("when_discard", p, c, {"from": came_from[c.id], "together": cards,
                                                          "from_each": came_from}) for c in cards])
    return cards


def topdeck(game: Game, p: Player, card: Card, cite: dict | None = None, quiet: bool = False) -> None:
    game.move(card, "deck", owner=p.index)
    if not quiet:
        game.log.add(f"{p.name} puts {card.name} onto their deck", cite or {})


def set_aside(game: Game, p: Player, card: Card, source: Card | None, cite: dict | None = None) -> None:
    game.move(card, "set_aside", owner=p.index)
    card.set_aside_by = source.id if source else None
    game.log.add(f"{p.name} sets aside {card.name}", cite or {})


def to_hand(game: Game, p: Player, card: Card, cite: dict | None = None) -> None:
    game.move(card, "hand", owner=p.index)
    game.log.add(f"{p.name} puts {card.name} into their hand", cite or {})


# ---------------------------------------------------------------- play
# Cards played while another card's ability is resolving (Venture revealing Venture, King's Court playing
# King's Court, Golem, Herald) nest: each level is a few Python frames, so a chain is stopped at this
# depth with a clear message, well inside Python's recursion limit. No rule limits the chain; a real
# game never nests anywhere near this deep (300 Ventures in one deck did, and ended in an internal error).
MAX_PLAY_DEPTH = 100


def play(game: Game, p: Player, card: Card, expected: Ref | None = None, by: Card | None = None,
         nth: str = "", leave: bool = False) -> Ref | None:
    """Play a card, counting how deep plays nest (``MAX_PLAY_DEPTH``); ``_play`` does the playing."""
    depth = game.play_depth
    if depth >= MAX_PLAY_DEPTH:
        raise EngineLimitError(f"{card.name} would be played inside {MAX_PLAY_DEPTH} other cards' abilities "
                               f"(each playing the next); the engine stops a chain of plays at "
                               f"{MAX_PLAY_DEPTH} nested plays")
    game.play_depth = depth + 1
    try:
        return _play(game, p, card, expected, by, nth, leave)
    finally:
        game.play_depth = depth


def _play(game: Game, p: Player, card: Card, expected: Ref | None, by: Card | None, nth: str,
          leave: bool) -> Ref | None:
    """Play a card: announce it, move it into play, let Attack Reactions go first, resolve, after-play.

    ``expected`` is where the ability playing it expects the card. If it was
    lost track of, only a throne-room (``by``) may still play it, leaving it
    where it is (2021 errata, § III lose-track rule). ``leave``: play it leaving it where it is
    (PLAY A CARD WHILE LEAVING IT § VI: the card with your Estate token).
    """
    from app.engine.core.effects import Ctx
    from app.engine.core.registry import definition

    d = definition(game, card.name)
    if leave:
        moved = False
    elif expected is not None and not expected.valid():
        if by is None:
            game.log.add(f"{p.name} cannot play {card.name}: it has been moved (it is {narrate.where(card, game)})",
                         narrate.LOSE_TRACK)
            return None
        moved = False
    else:
        moved = card.zone != "in_play" and not leave
        if moved:
            game.move(card, "in_play", owner=p.index)
    if by is not None:
        # who played it: a throne-room (it may stay in play with a Duration it played), or a card that played it
        # while leaving it (it may stay in play in that card's place: PLAY A CARD WHILE LEAVING IT § VI)
        record = game.left_by if leave else game.played_by
        record.setdefault(card.id, [])
        if by not in record[card.id]:
            record[card.id].append(by)
    placed = Ref(card, "in_play", card.stamp) if card.zone == "in_play" else Ref(card, "in_play", -1)
    # "again" before "with": "plays Throne Room again, with Royal Carriage" (not "with Royal Carriage again",
    # which reads as if the Carriage were played); where the card stays is said in a player's words
    via = (f"{nth}, with {by.name}" if nth else f" with {by.name}") if by is not None else nth
    where = ("" if card.zone == "in_play" else f", leaving it where it is ({narrate.where(card, game)})" if leave
             else f" ({card.name} stays {narrate.where(card, game)}: {by.name if by else 'the play'} has lost "
                  "track of it)")
    game.log.add(f"{p.name} plays {card.name}{via}{where}",
                 narrate.LEAVING if leave else
                 narrate.LOSE_TRACK if where else (narrate.MULTIPLE if by is not None else narrate.PLAYING))
    game.turn.played[card.name] += 1
    game.turn.played_refs.append(placed)   # "an Action card you played this turn that's still in play"
    game.tick()
    ctx = Ctx(game, p, card, placed)
    # "after you play an Action card" triggers on what was played, even if it is no Action by then (a pre-2019
    # inherited Estate trashed by its own ability: Your Estate token pre-2019 12; TRIGGERED ABILITY 3)
    was_action = card.is_type("Action")
    fire(game, Event("before_play", p, card))     # before-play abilities (Adventures "+" tokens, § III)
    if card.is_type("Attack"):
        ctx.unaffected = attack_window(game, p, card)
    ability = hooks.play_ability(game, card, d.play if d is not None else None)   # changed by a State (Envious)
    if ability is not None:
        # an ability may make the player do something else instead of following the card's instructions
        # (Enchantress; registered in hooks)
        with resolving(game.decider, card.name):
            (hooks.instead_of_play(game, p, card) or ability).apply(ctx)
    fire(game, Event("after_play", p, card, {"action": was_action}))
    return placed


def playable_actions(game: Game) -> list[Card]:
    t = game.turn
    if t.phase != "action" or t.actions < 1:
        return []
    return [c for c in game.current.hand if c.is_type("Action")]


def set_up_later(game: Game, p: Player, trigger: str, label: str, run: Callable, source: Card | None = None,
                 condition: Callable | None = None, until: str = "end_of_turn", cite: dict | None = None) -> None:
    game.later.append(LaterAbility(p.index, trigger, label, run, source, condition, until,
                                   [cite] if cite else []))
    game.log.add(f"{label} is set up", cite or narrate.LATER)


# ---------------------------------------------------------------- turn structure
def to_second_part_of_buy_phase(game: Game) -> None:
    """Buying anything or paying off Debt ends the Treasure-playing part of the Buy phase (Your turn § II, Buy
    phase: "Second part"); from the Action phase it first starts the Buy phase."""
    if game.turn.phase == "action":
        enter_buy_phase(game)
    game.turn.phase = "buy2"


def pay_for_a_buy(game: Game, cost: int) -> None:
    """A purchase (a card, an Event, a Project) takes its printed $ cost from the money pool and uses a Buy, in
    the second part of the Buy phase; what the purchase then does is the caller's."""
    to_second_part_of_buy_phase(game)
    game.turn.coins -= cost
    game.turn.buys -= 1


def enter_buy_phase(game: Game) -> None:
    """The Action phase ends and the Buy phase starts: start-of-Buy-phase abilities resolve (Buy phase § II:
    "Start-of-Buy-phase abilities" come before playing Treasures; Deluded, Envious)."""
    game.turn.phase = "buy"
    game.log.add(f"{game.current.name} moves to the Buy phase", narrate.BUY_PHASE)
    fire(game, Event("start_of_buy_phase", game.current))


def _end_buy_phase(game: Game) -> None:
    """End-of-Buy-phase abilities (Treasury 2022, Hermit 2022) resolve once, when the Buy phase ends.

    A turn that ends in its Action phase still has a Buy phase (Your turn § II): its start-of-Buy-phase abilities
    resolve too (a State returned at the start of the Buy phase), without a log line when nothing triggers.
    """
    if game.turn.phase in ("start", "action"):
        game.turn.phase = "buy"
        fire(game, Event("start_of_buy_phase", game.current))
    if game.turn.phase in ("buy", "buy2"):
        fire(game, Event("end_of_buy_phase", game.current))


def _phases_after_now(game: Game) -> list:
    """The registered phases after the current one that this game has, in turn order."""
    names = list(hooks.PHASES)
    start = names.index(game.turn.phase) + 1 if game.turn.phase in names else 0
    return [ph for ph in list(hooks.PHASES.values())[start:] if ph.in_game(game)]


def enter_phase(game: Game, name: str) -> None:
    """Move on to a phase a mechanism registered after the Buy phase (the Night phase): the Buy phase ends
    first, and phases in between that this game has are passed through (Turn phases § II)."""
    t = game.turn
    if t.phase == name:
        return
    _end_buy_phase(game)
    for ph in _phases_after_now(game):
        t.phase = ph.name
        game.log.add(f"{game.current.name} moves to the {ph.label}", ph.cite)
        if ph.name == name:
            return


def cleanup(game: Game) -> None:
    """Clean-up: discard play (except Durations with something left to do, and their throne-rooms) and hand, draw 5.

    Other players discard their cards from play too (Clean-up phase § II), e.g. a 1st-edition Outpost left
    in play after its extra turn was refused (Outpost 2).
    """
    p = game.current
    if game.turn.phase != "cleanup":
        # the Buy phase ends (Treasury 2022), then come the registered phases this game has (the Night phase)
        later = _phases_after_now(game)
        if later:
            enter_phase(game, later[-1].name)
        else:
            _end_buy_phase(game)
    game.turn.phase = "cleanup"
    fire(game, Event("start_of_cleanup", p))     # start-of-Clean-up abilities (Clean-up phase § II)
    _drop_finished(game, p)
    for q in game.others(p):
        if q.in_play:
            _drop_finished(game, q, other=True)
    staying = staying_in_play(game)
    leaving = [c for c in p.in_play if c.id not in staying]
    stays = [c for c in p.in_play if c.id in staying]
    if leaving:
        discard(game, p, leaving, narrate.CLEANUP, what=f"{names(leaving)} from play")
    if stays:
        game.log.add(f"{names(stays)} stay{'s' if len(stays) == 1 else ''} in play", narrate.DURATION,
                     *([narrate.LEAVING] if any(by in stays for v in game.left_by.values() for by in v) else []))
    if p.hand:
        discard(game, p, list(p.hand), narrate.CLEANUP, what=f"their hand ({names(p.hand)})")
    for q in game.others(p):
        # "The other players also do this if they have cards to discard from play" (Clean-up phase § II):
        # a card played on another player's turn with nothing left to do, or a 1st-edition Outpost whose
        # extra turn was not taken (Outpost 2: "discarded in the following Clean-up ... the next player's turn")
        theirs = [c for c in q.in_play if c.id not in staying]
        if theirs:
            discard(game, q, theirs, narrate.CLEANUP, what=f"{names(theirs)} from play")
    game.later = [la for la in game.later if la.until not in ("end_of_turn", "next_time")]
    game.played_by = {k: v for k, v in game.played_by.items() if k in staying}
    game.left_by = {k: v for k, v in game.left_by.items() if k in staying}
    draw(game, p, hooks.cards_for_hand(game, p, game.turn.cleanup_draw))


def staying_in_play(game: Game) -> dict[int, set[int]]:
    """The cards that would stay in play in this Clean-up: {card id: the players whose abilities keep it}.

    "Discard a card from play" (§ II) keeps a card in play when
    - it is a Duration card that has set up an ability to be resolved after this turn (DURATION CARDS § IV);
    - it played a Duration card an extra time that turn, and that Duration now stays in play (a throne-room:
      Playing a Duration card multiple times § IV; only the one that directly played it);
    - it played a card while leaving it, and the played card would otherwise now stay in play (PLAY A CARD
      WHILE LEAVING IT § VI, "With Durations": Band of Misfits (2019), your Estate token (2019), Captain,
      Necromancer, Overlord, Prince, Way of the Mouse). The card left in the Supply, the trash or set aside
      cannot stay in play itself, so the card that played it stays in its place; a throne-room that played
      *that* card does not stay (it played no Duration).

    Only cards in play are looked up in it. A Duration removed from play keeps no throne-room in play
    (REMOVED FROM PLAY § VI; Procession 7); a card played while leaving it never was in play, so where it is
    does not matter. "Would stay" is per player:
    two players' Bands of Misfits may play the same Caravan on top of its pile, and each stays only for the
    abilities its own player set up.
    """
    would: dict[int, set[int]] = {}
    for la in game.later:
        if la.source is None or la.until != "used":
            continue
        src = la.source
        would.setdefault(src.id, set()).add(la.owner)
        if src.zone == "in_play":
            for tr in game.played_by.get(src.id, []):
                would.setdefault(tr.id, set()).add(la.owner)
    changed = True
    while changed:              # a chain of cards played while leaving them (Band of Misfits plays Throne Room)
        changed = False
        for cid, players in game.left_by.items():
            owners = would.get(cid)
            if not owners:
                continue
            for by in players:
                mine = owners if by.owner is None else owners & {by.owner}
                if mine - would.get(by.id, set()):
                    would.setdefault(by.id, set()).update(mine)
                    changed = True
    return would


def _drop_finished(game: Game, p: Player, other: bool = False) -> None:
    """Drop next-turn abilities that can no longer do anything, so their Duration is discarded this turn.

    A next-turn ability whose ``condition`` is already false at Clean-up (it
    lost track of the card it set aside: Blockade 4) has nothing left to do;
    a Duration stays in play only while an ability it set up is pending (§ IV).
    """
    probe = Event("start_of_turn", p)
    for la in list(game.later):
        if (la.owner == p.index and la.until == "used" and la.trigger == "start_of_turn" and la.source is not None
                and la.condition is not None and not la.condition(game, probe)):
            game.later.remove(la)
            if other:     # another player's card, discarded in this player's Clean-up (Clean-up phase § II)
                game.log.add(f"{la.label}: it can no longer happen, so {p.name}'s {la.source.name} is discarded "
                             "in this Clean-up", narrate.CLEANUP, *la.citation[:1])
                continue
            game.log.add(f"{la.label}: nothing is left to do next turn (the card was lost track of), so "
                         f"{la.source.name} is discarded this turn", narrate.LOSE_TRACK, *la.citation[:1])


def game_end_reached(game: Game) -> str | None:
    if "Province" in game.supply and not game.supply["Province"]:
        return "the Province pile is empty"
    if "Colony" in game.supply and not game.supply["Colony"]:    # playing with Colonies (§ II Game end)
        return "the Colony pile is empty"
    need = 4 if len(game.players) >= 5 else 3
    empty = game.empty_piles()
    if len(empty) >= need:
        return f"{len(empty)} Supply piles are empty ({', '.join(empty)})"
    return None


def score(game: Game, p: Player) -> int:
    from app.engine.core.registry import definition

    total = p.vp_tokens + hooks.extra_score(game, p)     # registered by mechanisms: Landmarks, Miserable
    cards = p.all_cards()
    for c in cards:
        d = definition(game, c.name)
        if d is not None and d.vp is not None:
            if not callable(d.vp):
                total += d.vp
            else:      # ``per_card``: worth depends on where this copy is (Distant Lands on the Tavern mat)
                total += d.vp(game, p, c) if getattr(d.vp, "per_card", False) else d.vp(game, p)
    return total


def end_game(game: Game, reason: str) -> None:
    game.over = True
    game.turn.phase = "over"
    game.log.add(f"The game ends: {reason}", narrate.GAME_END)
    for p in game.players:
        for c in p.all_cards():
            if c.printed is not None:
                # cards are put into the deck before scoring: it is its own card again (Band of Misfits pre-2019 19)
                c.name, c.printed = c.printed, None
    game.scores = {p.name: score(game, p) for p in game.players}
    for p in game.players:
        game.log.add(f"{p.name} scores {game.scores[p.name]} VP in {p.turns} turns", narrate.GAME_END)
    best = max(game.scores.values())
    tied = [p for p in game.players if game.scores[p.name] == best]
    fewest = min(p.turns for p in tied)
    game.winners = [p.name for p in tied if p.turns == fewest]
    if len(tied) > 1:
        rule = ("the tied player with the fewest turns wins" if len(game.winners) == 1
                else "tied players with the same number of turns share the victory")
        game.log.add(f"Tie at {best} VP; {rule}: {', '.join(game.winners)}", narrate.GAME_END)
    else:
        game.log.add(f"{game.winners[0]} wins", narrate.GAME_END)


def end_turn(game: Game, between: Callable[[Game], None] | None = None) -> None:
    """Clean-up, check the game end (at the end of a turn, § II), then the next player's turn starts.

    ``between`` looks at the table after Clean-up and the game-end check, before the
    next turn starts (a scenario's ``after_cleanup`` expectations).
    """
    if game.over:
        raise IllegalAction("the game is over")
    cleanup(game)
    # "at end of turn", after the new hand is drawn (Possession 8 returns the set-aside trashed cards)
    fire(game, Event("end_of_turn", game.current))
    final = game.final_round
    if final is not None:
        # in the round after the game would have ended: it ends once that round's last turn has been played, no
        # matter whether the game-end conditions still hold, and no more extra turns come (Fleet 4)
        reason = None if final["turns"] else f"the round of turns after it would have ended ({final['reason']}) is over"
    else:
        reason = game_end_reached(game)
        if reason and _final_round(game, reason):
            reason = None
    if reason:
        end_game(game, reason)
    if between is not None:
        between(game)
    if reason:
        return
    # Between turns the player who last had a turn resolves their after-turn abilities (§ III Abilities between
    # turns), only when the game did not end (§ II Game end); extra turns are taken after them (next_turn)
    fire(game, Event("after_turn", game.current))
    from app.engine.core.turns import next_turn
    start_turn(game, *next_turn(game))


def _final_round(game: Game, reason: str) -> bool:
    """The game would end: does a registered rule give some players a round of turns first (Fleet 1-2)?"""
    last = game.turn.player if not game.turn.extra else getattr(game, "regular_player", game.turn.player)
    order = game.in_turn_order((last + 1) % len(game.players))
    found = hooks.final_round_turns(game, order)
    if found is None:
        return False
    players, rule = found
    game.final_round = {"turns": [q.index for q in players], "label": rule.label, "cite": rule.cite,
                        "reason": reason}
    due = "; the extra turns already due come first" if game.extra_turns else ""
    named = [q.name for q in players]
    who = named[0] if len(named) == 1 else f"{', '.join(named[:-1])} and {named[-1]}"
    game.log.add(f"The game would end ({reason}), but first there is one more round of turns, only for "
                 f"{who}{due}", rule.cite)
    return True


def start_turn(game: Game, index: int, extra: bool = False) -> None:
    from app.engine.core.state import Turn
    from app.engine.core.turns import end_ongoing

    game.previous_turn = game.turn
    game.last_turn[game.turn.player] = game.turn
    game.turn = Turn(player=index, extra=extra)
    p = game.current
    final = game.final_round
    if not extra and final is None:
        p.turns += 1      # extra turns, and those after the game would have ended, are not counted for the tie-breaker
    end_ongoing(game, p)
    kind = "extra turn" if extra else final["label"] if final is not None else f"turn {p.turns}"
    game.log.add(f"{p.name}'s {kind} starts (1 Action, 1 Buy, empty money pool)", narrate.sec("Your turn"),
                 *([final["cite"]] if final is not None and not extra else []))
    # whose turn this is and who decides in it, before any start-of-turn ability (Possession, possession.py)
    fire(game, Event("turn_begins", p, data={"extra": extra}))
    fire(game, Event("start_of_turn", p))
    game.turn.phase = "action"
