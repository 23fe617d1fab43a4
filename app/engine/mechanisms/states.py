"""States (Nocturne): Deluded, Envious, Miserable, Twice Miserable and Lost in the Woods.

STATES AND ARTIFACTS § IV: "When you take a State ... you keep the card in front of you until
you are told to return it or another player takes it from you. The State's ability applies
to you while you have it. Some State cards are dual-sided; only the face-up State is in
effect." "There is only one copy of ... the unique State Lost in the Woods" (taken from
whoever has it); "Other States are always taken from the common pool." States never belong
to a player and are never in play.

* Deluded: "At the start of your Buy phase, return this, and you can't buy Actions this
  turn" (Deluded 1-3: only buying is stopped, from the start of that Buy phase).
* Envious: "... Silver and Gold make $1 this turn" (Envious 1, 4: it changes their play
  ability, registered with the core as a play change).
* Miserable -2 VP, Twice Miserable -4 VP (registered with the core's scoring).
* Lost in the Woods: "At the start of your turn, you may discard a card to receive a Boon"
  (once per turn: Fool 4).

A turn that goes from the Action phase straight to Clean-up still has its Buy phase: the
core fires the start of it (``activities._end_buy_phase``), so Deluded is returned then.
Scenario key: ``states: [...]`` for a player, in the setup and in ``expect`` (any order).
"""
from __future__ import annotations

from app.engine.core import hooks, narrate
from app.engine.core.decisions import Question
from app.engine.core.effects import PlusCoins
from app.engine.core.state import Card, Game, LaterAbility, Player
from app.engine.mechanisms import boons
from app.engine.mechanisms.shared_decks import AnyOrder
from app.engine.scenario.extensions import expect_key, setup_key

STATES = narrate.sec("States and Artifacts", chapter="IV")
ALL = ("Deluded", "Envious", "Miserable", "Twice Miserable", "Lost in the Woods")
SIDES = {"Deluded": "Envious", "Envious": "Deluded", "Miserable": "Twice Miserable", "Twice Miserable": "Miserable"}


def held(game: Game, p: Player) -> list[str]:
    return game.__dict__.setdefault("states", {}).setdefault(p.index, [])


def has(game: Game, p: Player, name: str) -> bool:
    return name in game.__dict__.get("states", {}).get(p.index, ())


def take(game: Game, p: Player, name: str, cite: dict | None = None) -> None:
    """``p`` takes the State ``name`` (Lost in the Woods from whoever has it)."""
    _rules(game)
    mine = held(game, p)
    if name == "Lost in the Woods":
        for q in game.players:
            if q is not p and has(game, q, name):
                held(game, q).remove(name)
                game.log.add(f"{p.name} takes Lost in the Woods from {q.name}", *([cite] if cite else []), STATES)
                break
        else:
            game.log.add(f"{p.name} takes Lost in the Woods", *([cite] if cite else []), STATES)
    else:
        game.log.add(f"{p.name} takes {name}", *([cite] if cite else []), STATES)
    if name not in mine:
        mine.append(name)


def flip(game: Game, p: Player, old: str, new: str, cite: dict | None = None) -> None:
    """Turn a dual-sided State over (Miserable to Twice Miserable)."""
    mine = held(game, p)
    mine[mine.index(old)] = new
    game.log.add(f"{p.name} flips {old} over to {new}", *([cite] if cite else []), STATES)


def give_back(game: Game, p: Player, name: str, cite: dict | None = None) -> None:
    held(game, p).remove(name)
    game.log.add(f"{p.name} returns {name}", *([cite] if cite else []), STATES)


# ------------------------------------------------------------------ the States' abilities
def _start_of_buy(game: Game, ev) -> None:
    p = game.current
    for name, flag, what in (("Deluded", "deluded", "can't buy Action cards this turn"),
                             ("Envious", "envious", "Silver and Gold make $1 this turn")):
        if has(game, p, name):
            give_back(game, p, name, {"card": name, "ruling": 1})
            game.turn.__dict__[flag] = True
            game.log.add(f"{p.name} {what}", {"card": name, "ruling": 1})


def _lost_in_the_woods(game: Game, ev) -> None:
    p = game.current
    q = Question(p.name, "discard a card to receive a Boon (Lost in the Woods)? (or none)", "cards", list(p.hand), 0, 1)
    chosen = game.decider.ask(q)
    if not chosen:
        game.log.add(f"{p.name} does not discard a card for Lost in the Woods", {"card": "Lost in the Woods"})
        return
    from app.engine.core import activities as act
    act.discard(game, p, chosen, {"card": "Lost in the Woods", "ruling": 1})
    boons.receive_next(game, p, {"card": "Lost in the Woods", "ruling": 1})


def _rules(game: Game) -> None:
    """The States' abilities, set up once per game (each applies only to the player who has the State)."""
    if game.__dict__.get("state_rules"):
        return
    game.__dict__["state_rules"] = True
    game.later.append(LaterAbility(0, "start_of_buy_phase", "States at the start of the Buy phase", _start_of_buy,
                                   None, lambda g, ev: any(has(g, g.current, n) for n in ("Deluded", "Envious")),
                                   "game", [STATES], anyone=True))
    game.later.append(LaterAbility(0, "start_of_turn", "Lost in the Woods", _lost_in_the_woods, None,
                                   lambda g, ev: has(g, g.current, "Lost in the Woods") and bool(g.current.hand),
                                   "game", [{"card": "Lost in the Woods", "ruling": 1}], anyone=True, by_actor=True))


@hooks.buy_check("Deluded")
def _deluded(game: Game, pile: str, card: Card) -> str | None:
    if game.turn.__dict__.get("deluded") and card.is_type("Action"):
        return f"{game.current.name} is Deluded: they can't buy Action cards this turn (Deluded 1)"
    return None


_ENVIOUS_COIN = PlusCoins(1, cite={"card": "Envious", "ruling": 1})


@hooks.play_change("Envious")
def _envious(game: Game, card: Card):
    if card.name in ("Silver", "Gold") and game.turn.__dict__.get("envious") and card.owner == game.turn.player:
        return _ENVIOUS_COIN
    return None


@hooks.score_part("Miserable")
def _misery(game: Game, p: Player) -> int:
    states = game.__dict__.get("states", {}).get(p.index, ())
    return -2 * ("Miserable" in states) - 4 * ("Twice Miserable" in states)


# ------------------------------------------------------------------ the scenario format
_NAMES = {"type": "array", "maxItems": 5, "uniqueItems": True, "items": {"enum": list(ALL)}}


@setup_key("states", scope="player", schema=_NAMES,
           doc="The States the player has at the start (Deluded or Envious, Miserable or Twice Miserable, Lost in "
               "the Woods)", example="states: [Deluded, Miserable]")
def _setup_states(game: Game, p: Player, names: list[str]) -> None:
    _rules(game)
    for n in names or []:
        if SIDES.get(n) in held(game, p):
            game.log.add(f"states: {n} is left out: {p.name} has its other side, {SIDES[n]}", narrate.SPECIAL_SETUP)
            continue
        if n == "Lost in the Woods":
            for q in game.players:
                if n in held(game, q):
                    held(game, q).remove(n)
        if n not in held(game, p):
            held(game, p).append(n)


@expect_key("states", scope="player", schema=_NAMES, doc="The States the player has (any order)",
            example="states: [Envious]")
def _read_states(game: Game, p: Player) -> list[str]:
    return AnyOrder(game.__dict__.get("states", {}).get(p.index, []))
