"""Whose turn comes next, and abilities that last "until your next turn".

Extra turns (Outpost, Possession...) are after-turn abilities: they are
resolved after the current turn, one after the other, and only if the game
did not end (§ III Abilities between turns; § II Game end: "Any after-turn
abilities ... are not resolved"). A player never gets a 3rd turn in a row
from Outpost; extra turns are not counted for the tie-breaker (§ II Game end),
which ``activities.start_turn`` handles with ``Turn.extra``.

Ongoing abilities "until your next turn" (Corsair, Blockade, Monkey,
Lighthouse: ATTACK UNTIL YOUR NEXT TURN § VI, Ongoing ability § IV) are later
abilities with ``until='next_turn'``; they end when their owner's next turn
starts, *before* any start-of-turn ability (Lighthouse 4, Monkey 5), which is
what ``end_ongoing`` does. An extra turn is a next turn too (Monkey 4).
"""
from __future__ import annotations

from typing import Callable

from app.engine.core import narrate
from app.engine.core.state import Card, Game, LaterAbility, Player

BETWEEN_TURNS = narrate.sec("Abilities between turns")
UNTIL_NEXT_TURN = narrate.UNTIL_NEXT_TURN
ONGOING = narrate.sec("Ongoing ability")


def consecutive_turns(game: Game) -> int:
    """How many turns in a row the current player has taken, counting this one.

    A regular turn right after the player's own extra turn counts too: a Possessed turn is that player's
    turn, so "Outpost ... don't give you an extra turn if the previous turn was yours, even if you were
    Possessed that turn" (Possession 13). Two regular turns of the same player (a 1-player game) do not.
    """
    n = 1
    prev = game.previous_turn
    if prev is not None and prev.player == game.turn.player and (game.turn.extra or getattr(prev, "extra", False)):
        n = 2
    return n


def grant_extra_turn(game: Game, p: Player, cite: dict | None = None, checked: bool = False) -> None:
    """Queue an extra turn for ``p`` after the current turn (checked again then: no 3rd turn in a row).

    ``checked``: the ability already checked the previous turn when it was granted (Mission 2), so the
    turn is taken even after another extra turn of the same player (Outpost 4).
    """
    game.extra_turns.append(p.index)
    if checked:
        game.__dict__.setdefault("checked_extra_turns", []).append(p.index)
    game.log.add(f"{p.name} will take an extra turn after this one", cite or BETWEEN_TURNS)


def next_turn(game: Game) -> tuple[int, bool]:
    """(player index, is it an extra turn) for the turn after the current one.

    After extra turns, the regular turn order goes on from the last *regular* turn: a Possessed player's
    extra turn is another player's, and "the Possessed player in any case gets their regular turn"
    (Possession 4), so the player after the last regular turn's player is next, not the one after them.
    """
    if not game.turn.extra:
        game.regular_player = game.turn.player
    while game.extra_turns:
        who = game.extra_turns.pop(0)
        if who == game.turn.player and consecutive_turns(game) >= 2 and not _possessed_turn_queued(game, who):
            checked = game.__dict__.get("checked_extra_turns", [])
            if who in checked:
                # checked when it was granted (Mission 2: "checks if the previous turn was yours when you buy
                # it"), so not refused now, after another extra turn (Outpost 4: you get all of them)
                checked.remove(who)
                return who, True
            game.log.add(f"{game.players[who].name} does not take a 3rd turn in a row", BETWEEN_TURNS,
                         {"card": "Outpost", "ruling": 2})
            continue
        return who, True
    game.extra_turns.clear()
    if game.final_round is not None:
        # the round after the game would have ended: only its players, in turn order (Fleet 2)
        return game.final_round["turns"].pop(0), False
    return (getattr(game, "regular_player", game.turn.player) + 1) % len(game.players), False


def _possessed_turn_queued(game: Game, who: int) -> bool:
    """Is a Possessed turn queued for ``who``? Those are never refused as a 3rd turn in a row.

    "Island Folk, Journey, Mission, Outpost and Voyage don't give you an extra turn if the previous turn
    was yours ... But Possession can give more turns" (Possession 13): King's Court + Possession gives
    three. The queue is possession.py's (read here by name, to keep the modules' imports one-way).
    """
    return any(q[0] == who for q in game.__dict__.get("possession_queue", []))


def end_ongoing(game: Game, p: Player) -> None:
    """At the very start of ``p``'s turn, their 'until your next turn' abilities end (Lighthouse 4, Monkey 5)."""
    ending = [la for la in game.later if la.until == "next_turn" and la.owner == p.index]
    if not ending:
        return
    game.later = [la for la in game.later if la not in ending]
    labels = sorted({la.label for la in ending})
    game.log.add(f"{p.name}'s turn starts, so these end before any start-of-turn ability: {'; '.join(labels)}",
                 ONGOING, *[c for la in ending for c in la.citation[:1]])


def until_next_turn(game: Game, p: Player, trigger: str, label: str, run: Callable,
                    condition: Callable | None = None, source: Card | None = None,
                    cite: dict | None = None, by_actor: bool = False) -> LaterAbility:
    """Set up an ongoing ability of ``p`` triggered by any player's ``trigger`` until ``p``'s next turn.

    ``by_actor``: the player whose event triggers it does what it says (Blockade: "they gain a Curse"),
    so that player resolves it for timing (``LaterAbility.by_actor``).
    """
    la = LaterAbility(p.index, trigger, label, run, source, condition, "next_turn", [cite] if cite else [],
                      anyone=True, by_actor=by_actor)
    game.later.append(la)
    game.log.add(f"{label} is set up", cite or UNTIL_NEXT_TURN)
    return la


def protect_from_attacks(game: Game, p: Player, label: str, cite: dict | None = None,
                         source: Card | None = None) -> LaterAbility:
    """Until ``p``'s next turn, Attacks other players play do not affect ``p`` (Lighthouse 2022: Lighthouse 2-4)."""
    def run(g: Game, ev, p=p, cite=cite) -> None:
        ev.data["unaffected"].add(p.index)
        g.log.add(f"{ev.card.name} does not affect {p.name} ({label})", *([cite] if cite else []))

    def cond(g: Game, ev, p=p) -> bool:
        return ev.player.index != p.index

    return until_next_turn(game, p, "attack_played", label, run, cond, source, cite)


def attacked_players(game: Game, attacker: Player, unaffected: set[int]) -> set[int]:
    """Players an Attack's ongoing part applies to (not those who were unaffected when it was played)."""
    return {q.index for q in game.others(attacker) if q.index not in unaffected}


__all__ = ["consecutive_turns", "grant_extra_turn", "next_turn", "end_ongoing", "until_next_turn",
           "protect_from_attacks", "attacked_players"]
