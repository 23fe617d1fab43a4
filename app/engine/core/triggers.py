"""Triggered abilities: collecting what an occurrence triggers and resolving it in the right order.

Timing (§ III Basic timing rules, Timing of concurrent abilities): abilities
of several players resolve in turn order starting with the current player;
a player with several concurrent abilities chooses the order (a Question).
An ability is resolved by "the player actually doing it" (Ordering several
players' concurrent abilities, § III): another player's ongoing ability that
makes the gaining player gain a Curse (Blockade) is the gainer's to order.
Attack Reactions (Moat) get their own window before the Attack resolves, in
turn order, and any Reaction resolved reopens the window from the first player
(Resolving Reactions and timing 1-2).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from app.engine.core import narrate
from app.engine.core.decisions import Question, resolving
from app.engine.core.state import Card, Game, LaterAbility, Player

MORE_CONCURRENT = narrate.sec("More concurrent abilities can trigger")


@dataclass
class Event:
    kind: str                    # 'when_gain' | 'when_would_gain' | 'when_buy' | 'when_trash' | 'when_discard' | 'after_play' | 'start_of_turn'
    player: Player               # who gained / trashed / played ...
    card: Card | None = None
    data: dict = field(default_factory=dict)   # e.g. {'to': 'discard'} for when-would-gain; may be changed


@dataclass
class Pending:
    """One triggered ability waiting to resolve; ``name`` labels it in an order question."""

    owner: Player
    name: str
    run: Callable[[Game, Event], Any]
    later: LaterAbility | None = None
    reaction_card: Card | None = None    # the card in hand, for a Reaction (it reacts at most once per occurrence)


def only_if(condition: Callable[[Game, "Event", Card], bool], hook: Callable) -> Callable:
    """A card's own triggered ability that triggers only when ``condition`` holds ("when you discard this other
    than during Clean-up", "when you discard this from play"): otherwise it is not collected, so it never stands
    in an order question beside abilities that did trigger (cards discarded at once, ``fire_together``)."""
    hook.triggers_if = condition
    return hook


def from_play(game: Game, ev: "Event", card: Card) -> bool:
    """"When you discard this from play" (Alchemist, Capital, Hermit, Travellers)."""
    return ev.data.get("from") == "in_play"


def _reactions(game: Game, ev: Event) -> list[Pending]:
    """Cards in hands that react to this occurrence (Watchtower on gains, Clerk at the start of a turn)."""
    from app.engine.core.registry import definition

    found: list[Pending] = []
    for p in game.in_turn_order():
        for c in list(p.hand):
            d = definition(game, c.name)
            r = d.reactions.get(ev.kind) if d else None
            if r is not None and r.applies(game, ev, p, c):
                found.append(Pending(p, f"{c.name} (Reaction)", lambda g, e, r=r, p=p, c=c: r.react(g, e, p, c),
                                     reaction_card=c))
    return found


# Mechanisms that find abilities in places this module does not look (Reserve cards on the Tavern mat
# offering to be called, reserve.py): each is ``collect(game, ev) -> list[Pending]``.
COLLECTORS: list[Callable[[Game, "Event"], list[Pending]]] = []


def _collect(game: Game, ev: Event) -> list[Pending]:
    from app.engine.core.registry import definition

    found: list[Pending] = []
    # the card's own ability (when-gain / when-trash / when-discard on the card itself)
    if ev.card is not None:
        d = definition(game, ev.card.name)
        hook = d.hooks.get(ev.kind) if d else None
        condition = getattr(hook, "triggers_if", None)
        if hook is not None and (condition is None or condition(game, ev, ev.card)):
            found.append(Pending(ev.player, f"{ev.card.name} ({ev.kind.replace('_', '-')})",
                                 lambda g, e, h=hook, c=ev.card: h(g, e, c)))
    found += _reactions(game, ev)
    for p in game.in_turn_order():
        # while-in-play abilities
        for c in list(p.in_play):
            d = definition(game, c.name)
            h = d.while_in_play.get(ev.kind) if d else None
            if h is not None:
                found.append(Pending(p, f"{c.name} (in play)", lambda g, e, h=h, c=c: h(g, e, c)))
    for collect in COLLECTORS:
        found += collect(game, ev)
    # abilities set up earlier (Merchant, Durations)
    for la in list(game.later):
        # a later ability is "yours": it triggers on your own plays, gains and turns
        mine = la.owner == ev.player.index or la.anyone
        if la.trigger == ev.kind and mine and (la.condition is None or la.condition(game, ev)):
            owner = ev.player if la.by_actor else game.players[la.owner]
            found.append(Pending(owner, la.label, lambda g, e, la=la: la.run(g, e), la))
    return found


def fire(game: Game, ev: Event) -> None:
    """Resolve everything ``ev`` triggers: players in turn order, each choosing their own order.

    A Reaction card that comes into a hand while these abilities resolve (a
    Clerk drawn by Caravan at the start of the turn, a Watchtower gained to
    hand) can still react to the same occurrence (More concurrent abilities
    can trigger 1, § III; Clerk 3, Watchtower 5-6, Pirate 6): after each
    ability the hands are looked at again, and each card reacts at most once.
    A player whose turn-order slot has passed gets their new Reactions after
    the others, in a further round.
    """
    fire_together(game, [ev])


def fire_together(game: Game, events: list[Event]) -> None:
    """Resolve what several occurrences of one moment trigger as one set of concurrent abilities.

    Cards trashed at once (Chapel) are all trashed first, "then resolve the triggered when-trash abilities in
    any order" (Triggered ability, when-trash, § VI): Overgrown Estate's +1 Card may come before Haunted Mirror's
    discard (Haunted Mirror 3). With one occurrence this is ``fire``. Abilities with the same label (Sewers or
    Tomb for each of two trashed cards) do the same thing whichever card they are for, so their order is not asked.
    """
    pending: list[tuple[Pending, Event]] = [(x, ev) for ev in events for x in _collect(game, ev)]
    if not pending:
        return
    # "the next time you gain a card this turn" (Charm) is used up by the occurrence that triggered it: a card
    # gained while resolving it (or another ability of the same gain) is not a next time (Charm 2)
    game.later = [la for la in game.later if not (la.until == "next_time" and any(x.later is la for x, _ in pending))]
    seen = {(id(ev), x.reaction_card.id) for x, ev in pending if x.reaction_card is not None}
    # abilities that come into being while these resolve may trigger on the same occurrence: a card played on
    # gaining it (Innovation) sets up its own when-gain ability, or enters play with one (More concurrent
    # abilities can trigger 1-2; TRIGGERED ABILITY ③). Only for gains and buys: an ability set up at the start
    # of a turn "at the start of your next turn" waits for the next one.
    watch = [e for e in events if e.kind in REOPENING]
    # keyed by id, holding the ability itself: an ability dropped meanwhile can't free its id for a new one
    known_later = {id(la): la for la in game.later} if watch else {}
    known_in_play = {c.id for q in game.players for c in q.in_play} if watch else set()
    # at the start of a turn, a lasting start-of-turn ability that comes true meanwhile starts this turn
    # (see ``_lasting_now``); the abilities already collected are not collected again
    turn_starts = [e for e in events if e.kind == "start_of_turn"]
    collected = {id(x.later): x.later for x, _ in pending if x.later is not None}
    while pending:
        for p in game.in_turn_order():
            while True:
                mine = [x for x, _ in pending if x.owner is p]
                if not mine:
                    break
                if len(mine) > 1:
                    kind = events[0].kind.replace('_', '-')
                    about = ", ".join(e.card.name for e in events if e.card is not None) or \
                        ", ".join(m.name for m in mine)
                    q = Question(p.name, f"choose which {kind} ability to resolve first",
                                 "order", mine, first_only=True,   # one label, or the whole order as a list
                                 about=about)
                    order = game.decider.ask(q)
                    nxt = order[0]
                    if len({m.name for m in mine}) > 1:
                        game.log.add(f"{p.name} resolves {nxt.name} first", narrate.CONCURRENT)
                else:
                    nxt = mine[0]
                ev = next(e for x, e in pending if x is nxt)
                pending = [(x, e) for x, e in pending if x is not nxt]
                if nxt.later is not None and nxt.later.until == "used" and nxt.later in game.later:
                    game.later.remove(nxt.later)
                if nxt.reaction_card is not None and nxt.reaction_card.zone != "hand":
                    # a Reaction is used from the hand: one that left it meanwhile (discarded by another ability of
                    # the same occurrence) can no longer be used (Haunted Mirror 2: Market Square discarded for it)
                    game.log.add(f"{nxt.reaction_card.name} is no longer in {p.name}'s hand, so it can't react",
                                 MORE_CONCURRENT)
                    continue
                with resolving(game.decider, nxt.name):
                    nxt.run(game, ev)
                for e in watch:
                    pending += [(x, e) for x in _arrived(game, e, known_later, known_in_play)]
                for e in turn_starts:
                    pending += [(x, e) for x in _lasting_now(game, e, collected)]
                for e in events:
                    for x in _reactions(game, e):
                        if (id(e), x.reaction_card.id) not in seen:
                            seen.add((id(e), x.reaction_card.id))
                            pending.append((x, e))
                            game.log.add(f"{x.reaction_card.name} came into {x.owner.name}'s hand while this was "
                                         "resolving: it may still react", MORE_CONCURRENT)


REOPENING = ("when_gain", "when_buy")     # occurrences whose window new abilities may join (see ``fire``)


def _pending(game: Game, ev: Event, la: LaterAbility) -> Pending:
    owner = ev.player if la.by_actor else game.players[la.owner]
    return Pending(owner, la.label, lambda g, e, la=la: la.run(g, e), la)


def _lasting_now(game: Game, ev: Event, collected: dict[int, LaterAbility]) -> list[Pending]:
    """Start-of-turn abilities lasting the game whose condition came true while the start of this turn resolved.

    PLAY A CARD AT THE START OF YOUR TURN (§ VI): "If you play ... Fool gaining Lost in the Woods ... the
    start-of-turn ability will start this turn" (More concurrent abilities can trigger 1, § III; Lost in the
    Woods 2). An ability set up for "the start of your next turn" (``until='used'``) waits for the next turn.
    """
    found: list[Pending] = []
    for la in list(game.later):
        if id(la) in collected or la.until != "game" or la.trigger != ev.kind:
            continue
        mine = la.owner == ev.player.index or la.anyone
        if mine and (la.condition is None or la.condition(game, ev)):
            collected[id(la)] = la
            found.append(_pending(game, ev, la))
            game.log.add(f"{la.label} came into effect while the start of the turn was resolving: it starts this "
                         "turn", MORE_CONCURRENT)
    return found


def _arrived(game: Game, ev: Event, known_later: dict[int, LaterAbility], known_in_play: set[int]) -> list[Pending]:
    """Abilities set up, or cards with while-in-play abilities put into play, since ``ev``'s window opened that
    trigger on it (More concurrent abilities can trigger 1-2, § III); each joins once (``known_*`` grow)."""
    from app.engine.core.registry import definition

    found: list[Pending] = []
    for la in list(game.later):
        if id(la) in known_later:
            continue
        known_later[id(la)] = la
        mine = la.owner == ev.player.index or la.anyone
        if la.trigger == ev.kind and mine and (la.condition is None or la.condition(game, ev)):
            found.append(_pending(game, ev, la))
    for p in game.in_turn_order():
        for c in list(p.in_play):
            if c.id in known_in_play:
                continue
            known_in_play.add(c.id)
            d = definition(game, c.name)
            h = d.while_in_play.get(ev.kind) if d else None
            if h is not None:
                found.append(Pending(p, f"{c.name} (in play)", lambda g, e, h=h, c=c: h(g, e, c)))
    what = "gain" if ev.kind == "when_gain" else "buy"
    for x in found:
        game.log.add(f"{x.name} arrived while the {what} of {ev.card.name if ev.card else 'a card'} was resolving: it "
                     f"triggers on that {what} too", MORE_CONCURRENT)
    return found


def attack_window(game: Game, attacker: Player, card: Card) -> set[int]:
    """Let other players reveal Reactions to an Attack; returns the players now unaffected by it.

    Resolving Reactions and timing 2 (2019 errata): each time a player
    resolves a Reaction, the window starts again from the first player after
    the attacker, who may reveal a Reaction again (the same card if it is
    still in hand and still applies: Secret Chamber 4, Diplomat 4) or one
    drawn meanwhile (Moat 3). A player who declines is passed over until
    someone after them resolves something; the window closes when every
    player in turn declines or has nothing to reveal. ``ev.data['revealed']``
    lists (player index, card name) of what was resolved, so a Reaction can
    tell whether resolving it again could change anything (Moat).
    """
    from app.engine.core.registry import definition

    unaffected: set[int] = set()
    # ongoing protections (Lighthouse) add their owner to ``unaffected`` (turns.py)
    fire(game, Event("attack_played", attacker, card, {"unaffected": unaffected}))
    revealed: list[tuple[int, str]] = []
    asked: set[int] = set()      # players who were offered the window already
    ev = Event("attack", attacker, card, {"unaffected": unaffected, "revealed": revealed})
    restart = True
    while restart:
        restart = False
        for p in game.others(attacker):
            options = []
            for c in p.hand:
                d = definition(game, c.name)
                if d is not None and "attack" in d.reactions and d.reactions["attack"].applies(game, ev, p, c):
                    options.append(c)
            if not options:
                continue
            again = any(i == p.index for i, _ in revealed)
            q = Question(p.name, f"reveal {'another' if again else 'a'} Reaction to {attacker.name}'s {card.name}?",
                         "cards", options, 0, 1)
            chosen = game.decider.ask(q)
            was_asked = p.index in asked
            asked.add(p.index)
            if not chosen:
                game.log.add(f"{p.name} does not reveal {'another' if again else 'a'} Reaction to {card.name}",
                             narrate.REACTION_TO_ATTACK, *([narrate.REACTIONS] if revealed else []))
                continue
            c = chosen[0]
            game.tick()      # a player could reveal Secret Chamber forever: the step limit stops it
            if was_asked and revealed:
                pi, pn = revealed[-1]
                game.log.add(f"The Reaction window reopened after {game.players[pi].name}'s {pn}, so {p.name} may "
                             "react again", narrate.REACTIONS)
            revealed.append((p.index, c.name))
            definition(game, c.name).reactions["attack"].react(game, ev, p, c, unaffected)
            restart = True
            break
    return unaffected
