"""Possession's turn: the player to your left takes an extra turn in which you decide for them.

Why a module of its own: a Possessed turn changes several general activities
at once (who decides, who gains, where trashed cards go, who takes VP tokens),
and "See Possession 6" is cited by some fifty Card Reference entries. The
rulings implemented (Card Reference, Possession):

* 1: playing Possession SETS UP A LATER ABILITY: an extra turn after this one
  (turns.grant_extra_turn); 13: Throne Room + Possession gives two extra
  turns (each play queues one); 12: extra turns given *on* the Possessed turn
  are resolved as normal (the queue only starts a Possessed turn when it
  reaches the turn this Possession queued).
* 2: the Possessed player takes the turn, the possessor makes the decisions:
  every question to the Possessed player is put to the possessor (the
  decider is wrapped for the turn), and an Attack they play affects the
  possessor as normal.
* 4: afterwards the Possessed player gets their regular turn
  (turns.next_turn resumes the order from the last regular turn).
* 5: a when-would-gain ability: every card the Possessed player would gain,
  the possessor gains instead, always to their discard pile.
* 6: so no when-gain ability triggers for the Possessed player (they gained
  nothing), and an effect that refers to the gained card (Ironworks) finds
  none; when-buy abilities still trigger (the Possessed player bought it).
* 8: the Possessed player's trashed cards were trashed (when-trash abilities
  trigger) and are then set aside, and go to their discard pile at the end of
  the turn, *after* they drew their new hand (the ``end_of_turn`` event).
* 9 (2018 edition) and 16: the possessor gets the Debt tokens the Possessed
  player would get, "no other tokens" (the card: "Any cards or Debt they would
  gain on that turn, you gain instead"; debt.take_debt). VP tokens stay with
  the Possessed player. (The icon of ruling 9 is lost in our copy of the rules;
  the card's text names Debt.)
* 11: it is the Possessed player's next turn: their Duration abilities
  trigger on it (it is their turn, so nothing special is needed).

* 13 (audit): a regular turn right after the player's Possessed turn is a
  2nd turn in a row for Outpost (turns.consecutive_turns), and a queued
  Possessed turn is never refused as a 3rd turn in a row (King's Court +
  Possession gives three: turns.next_turn).
* Trader (pre-2020) 15, Trail 8, Fortress 2 (audit): Possession's
  when-would-gain / when-trash abilities resolve in the order the possessor
  picks among the Possessed player's concurrent abilities; a gain another
  ability already replaced, or a trashed card another ability already moved,
  is left alone.

Where the BGG FAQ disagrees, the Complete Rules (newer) win: the FAQ (under
Possession) says the *possessor* still decides between turns which queued
extra turn comes first, and counts "two consecutive turns" for Outpost;
Possession 14 (a 2015 ruling reversing the designer's earlier one) gives that
choice to the player who last had a turn, and Possession 13 says Outpost
checks only whether the previous turn was yours.

Not implemented (no card of the sets the engine runs needs them): Coffers,
Villagers, Favors and Debt (10), and choosing the order of queued extra turns
(14; the engine takes them in the order they were granted).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from app.engine.core import activities as act
from app.engine.core import narrate
from app.engine.core.decisions import Question
from app.engine.core.state import Card, Game, LaterAbility, Player
from app.engine.core.turns import grant_extra_turn

UNTIL = "game"      # removed by this module itself when the Possessed turn ends, not by Clean-up


def R(n: int) -> dict:
    return {"card": "Possession", "ruling": n}


@dataclass
class Possessed:
    """One Possessed turn: who decides for whom, and the trashed cards set aside meanwhile."""

    possessor: int
    possessed: int
    source: Card | None = None
    set_aside: list[tuple[Card, int]] = field(default_factory=list)   # (card, stamp when set aside)
    abilities: list[LaterAbility] = field(default_factory=list)


class _PossessorDecides:
    """The scenario's decider, with every question to the Possessed player put to the possessor (Possession 2).

    Everything else (load, remaining, the answers) is the wrapped decider's, so a replay loading each step's
    answers is unaffected.
    """

    def __init__(self, inner: Any, possessed: str, possessor: str):
        self._inner, self._possessed, self._possessor = inner, possessed, possessor

    def ask(self, q: Question) -> Any:
        if q.player == self._possessed:
            q.player = f"{self._possessor} (deciding for {self._possessed})"
        return self._inner.ask(q)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


def current(game: Game) -> Possessed | None:
    """The Possessed turn being played now, if any."""
    return getattr(game, "possessed_turn", None)


# ------------------------------------------------------------------ playing Possession
def possess_next(game: Game, possessor: Player, source: Card | None) -> None:
    """Queue an extra turn for the player to the left of ``possessor``, Possessed by them (Possession 1, 13)."""
    if len(game.players) < 2:
        game.log.add(f"{possessor.name} has no player to their left: no one is Possessed", R(1))
        return
    target = game.others(possessor)[0]
    queue = game.__dict__.setdefault("possession_queue", [])
    if any(q[0] == target.index for q in queue):
        game.log.add(f"Possession can give more turns: {target.name} will take another Possessed turn", R(13))
    queue.append((target.index, possessor.index, source))
    _install_turn_hook(game)
    grant_extra_turn(game, target, R(1))
    game.log.add(f"{target.name}'s extra turn will be Possessed by {possessor.name}", R(2))


def _install_turn_hook(game: Game) -> None:
    """One 'turn_begins' ability per game starts each queued Possessed turn when it comes up."""
    if any(la.label == "Possession (extra turn)" for la in game.later):
        return
    game.later.append(LaterAbility(0, "turn_begins", "Possession (extra turn)", _begin, until=UNTIL,
                                   citation=[R(1)], anyone=True))


def _begin(game: Game, ev: Any) -> None:
    """At the start of an extra turn: if it is the next queued Possessed turn, the possessor takes control."""
    queue = game.__dict__.get("possession_queue", [])
    p = ev.player
    if not ev.data.get("extra"):
        return
    hit = next((q for q in queue if q[0] == p.index), None)
    if hit is None:
        return
    queue.remove(hit)
    _, possessor_i, source = hit
    possessor = game.players[possessor_i]
    pt = Possessed(possessor_i, p.index, source)
    game.possessed_turn = pt
    game.decider = _PossessorDecides(game.decider, p.name, possessor.name)
    game.log.add(f"{p.name} is Possessed: {possessor.name} makes all decisions for {p.name} and sees all their "
                 "cards, including the hand drawn in Clean-up", R(2), R(3))
    for trigger, label, run, cond in (
            ("when_would_gain", "Possession (would gain)", _redirect_gain, _is_possessed_player),
            ("when_trash", "Possession (trashed)", _set_aside_trashed, _trashed_theirs),
            ("end_of_turn", "Possession (end of turn)", _end, _is_possessed_player)):
        la = LaterAbility(p.index, trigger, label, run, condition=cond, until=UNTIL, citation=[R(1)], anyone=True)
        pt.abilities.append(la)
        game.later.append(la)


def _is_possessed_player(game: Game, ev: Any) -> bool:
    pt = current(game)
    return pt is not None and ev.player.index == pt.possessed


def _trashed_theirs(game: Game, ev: Any) -> bool:
    return _is_possessed_player(game, ev) and ev.card is not None and ev.card.zone == "trash"


# ------------------------------------------------------------------ during the Possessed turn
def _redirect_gain(game: Game, ev: Any) -> None:
    """Cards the Possessed player would gain, the possessor gains instead, to their discard pile (Possession 5-6).

    If another when-would-gain ability resolved first and replaced this gain (pre-2020 Trader), the gain
    no longer happens, so Possession has nothing to take: "Possession can't do anything with the original
    gain (since it didn't happen)" (Trader pre-2020 15); the Silver Trader gains instead is redirected by
    its own when-would-gain occurrence.
    """
    pt = current(game)
    who = game.players[pt.possessor]
    if ev.data.get("replaced"):
        game.log.add(f"{ev.player.name}'s gain of {ev.card.name} was already replaced, so Possession has no gain "
                     "to take", {"card": "Trader", "ruling": 15, "version": "pre-2020"})
        return
    ev.data["replaced"] = True
    game.log.add(f"{ev.player.name} would gain {ev.card.name}: {who.name} gains it instead, to their discard "
                 f"pile; {ev.player.name} gains nothing, so no when-gain ability triggers for them", R(5), R(6))
    act.gain(game, who, ev.card, "discard", R(5))


def _set_aside_trashed(game: Game, ev: Any) -> None:
    """A trashed card of the Possessed player is set aside; it was still trashed (Possession 8).

    The possessor may resolve another when-trash ability first (Fortress 2, Lich 8, Trail 8); if that
    moved the card out of the trash (Trail played, Fortress back to hand), this ability has lost track of
    it and leaves it where it is (§ III the "lose track" rule).
    """
    pt = current(game)
    p, card = ev.player, ev.card
    if card.zone != "trash":
        game.log.add(f"{card.name} is no longer in the trash (it is in {card.zone.replace('in_play', 'play')}), so Possession cannot set it "
                     "aside", narrate.LOSE_TRACK, R(8))
        return
    game.move(card, "set_aside", owner=p.index)
    card.set_aside_by = pt.source.id if pt.source is not None else None
    pt.set_aside.append((card, card.stamp))
    game.log.add(f"{card.name} was trashed, and is set aside (not in the trash) until the end of "
                 f"{p.name}'s turn", R(8))


def _end(game: Game, ev: Any) -> None:
    """End of the Possessed turn, after the new hand: the set-aside cards go to the discard pile (Possession 8)."""
    pt = current(game)
    p = game.players[pt.possessed]
    back = [c for c, stamp in pt.set_aside if c.zone == "set_aside" and c.stamp == stamp]
    for c in back:
        game.move(c, "discard", owner=p.index)
    if back:
        game.log.add(f"After drawing their new hand, {p.name} puts the set-aside trashed cards into their "
                     f"discard pile: {act.names(back)}", R(8))
    game.later = [la for la in game.later if la not in pt.abilities]
    if isinstance(game.decider, _PossessorDecides):
        game.decider = game.decider._inner
    game.possessed_turn = None
    if game.final_round is not None:
        # the round after the game would have ended (Fleet): only its own players take a turn in it
        game.log.add(f"{p.name}'s Possessed turn is over; in this round only its own players take a turn",
                     game.final_round["cite"])
    else:
        game.log.add(f"{p.name}'s Possessed turn is over; after any other extra turns, {p.name} still gets their "
                     "regular turn", R(4))
