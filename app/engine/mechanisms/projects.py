"""Projects: bought like Events, they put a player's cube on the card, and its ability is theirs for good.

Why a module of its own: Renaissance brings twenty Projects, and the rules for buying one and for whose
ability it is are the same for all (Complete Rules, EVENTS AND PROJECTS § IV):

* "In your Buy phase, instead of buying a card, you may buy an Event or Project, paying from your money
  pool and using up one Buy ... Therefore, buying an Event or Project is not buying a card, and its cost
  cannot be changed by cards like Bridge": no when-buy or when-gain ability triggers, the printed cost is
  paid, and (as with Events) no Treasures may be played afterwards.
* "You activate the Project by placing an unused Project cube of your player color on it. This project's
  ongoing ability now applies to you for the rest of the game. You can buy two Projects during the game,
  but not the same one twice, and you can never remove a placed cube." Special setup (§ I, Renaissance):
  "each player gets two Project cubes".
* "A Project's ability is active for players who have a Project cube on the card" (§ IV; ongoing ability
  timers § V): its triggered abilities are collected by ``owned.py`` for the players with a cube.

A Project is registered like a card (``registry.register``: the card page and ``rulings coverage`` see
it), with its abilities in ``owned.abilities``. A scenario lists the Projects beside the Kingdom with the
``projects`` key, starts a player with cubes already placed with the player key ``projects``, and buys
one with the ``buy_project`` step.
"""
from __future__ import annotations

from typing import Callable

from app.corpus.card_facts import facts_for, load_facts
from app.engine.core import activities as act
from app.engine.core import narrate, registry
from app.engine.core.errors import IllegalAction, ScenarioError
from app.engine.core.registry import CardDef, definition, register
from app.engine.core.state import Game, Player, card_facts
from app.engine.mechanisms import owned
from app.engine.scenario.extensions import CARD_LIST, expect_key, setup_key, step_kind

PROJECTS = narrate.sec("Events and Projects")
CUBES = 2          # "each player gets two Project cubes" (Special setup § I, Renaissance)


_ON_CUBE: dict[str, Callable[[Game], None]] = {}
registry.undone_with_an_interrupted_load(_ON_CUBE)


def register_project(name: str, *abilities: owned.Ability, on_cube: Callable[[Game], None] | None = None,
                     note: str = "") -> CardDef:
    """Register a Project (checked against the card facts) and what it does for players with a cube on it.

    ``on_cube(game)``: called whenever a cube is placed on it, for a standing effect that is not a triggered
    ability (Canal's cost reduction).
    """
    if "Project" not in card_facts(name).types:
        raise ValueError(f"{name} is not a Project")
    owned.abilities(name, *abilities)
    if on_cube is not None:
        _ON_CUBE[name] = on_cube
    return register(CardDef(name, note=note))


def place_cube(game: Game, p: Player, name: str) -> None:
    cubes(game).setdefault(name, []).append(p.index)
    if name in _ON_CUBE:
        _ON_CUBE[name](game)


def in_game(game: Game) -> list[str]:
    return game.__dict__.setdefault("projects_in_game", [])


def cubes(game: Game) -> dict[str, list[int]]:
    """Project -> the players (indexes) with a cube on it, in the order they placed them."""
    return game.__dict__.setdefault("project_cubes", {})


def has(game: Game, p: Player, name: str) -> bool:
    return p.index in cubes(game).get(name, ())


def projects_of(game: Game, p: Player) -> list[str]:
    return [name for name, who in cubes(game).items() if p.index in who]


owned.holders("Project", lambda game: [(name, i) for name, who in cubes(game).items() for i in who])


def why_not(game: Game, p: Player, name: str) -> str | None:
    """Why ``p`` cannot buy the Project ``name`` now, or None."""
    t = game.turn
    if name not in in_game(game):
        return f"{name} is not a Project in this game (Projects: {', '.join(in_game(game)) or 'none'})"
    if t.phase not in ("action", "buy", "buy2"):
        return f"Projects are bought in the Buy phase, and this is the {t.phase} phase"
    if has(game, p, name):
        return f"{p.name} already has a cube on {name}: the same Project can't be bought twice"
    if len(projects_of(game, p)) >= CUBES:
        return f"{p.name} has no unused Project cube left (two per player, never removed)"
    if t.buys < 1:
        return "no Buys left"
    cost = card_facts(name).cost_coins
    if cost > t.coins:
        return f"{name} costs ${cost} and the money pool has ${t.coins}"
    return None


def buyable(game: Game) -> list[str]:
    return [n for n in in_game(game) if why_not(game, game.current, n) is None]


def buy_project(game: Game, p: Player, name: str) -> None:
    """Pay the printed cost, use a Buy, place a cube: not buying a card (EVENTS AND PROJECTS § IV)."""
    reason = why_not(game, p, name)
    if reason is not None:
        raise IllegalAction(f"cannot buy the Project {name}: {reason}", buyable(game))
    t = game.turn
    cost = card_facts(name).cost_coins
    act.pay_for_a_buy(game, cost)
    place_cube(game, p, name)
    game.log.add(f"{p.name} buys the Project {name} for ${cost} (money pool now ${t.coins}, Buys left {t.buys}) "
                 f"and puts a cube on it: its ability is theirs for the rest of the game; this is not buying a card",
                 PROJECTS)


# ------------------------------------------------------------------ the scenario format
def _project_names() -> list[str]:
    return sorted(f.name for f in load_facts().values() if "Project" in f.types)


def _names(game: Game, value: object, where: str) -> list[str]:
    if not isinstance(value, list):
        raise ScenarioError("setup", f"{where}: expected a list of Project names, e.g. [Fair, Academy]")
    if len(value) > 20:
        raise ScenarioError("setup", f"{where}: at most 20 Projects, found {len(value)}")
    names = []
    for raw in value:
        f = facts_for(raw) if isinstance(raw, str) else None
        if f is None or "Project" not in f.types:
            raise ScenarioError("setup", f"{where}: {raw!r} is not a Project")
        if definition(game, f.name) is None:
            raise ScenarioError("setup", f"{where}: {f.name} has no executable definition yet")
        names.append(f.name)
    return names


_LIST = {"type": "array", "items": {"enum": _project_names()}, "maxItems": 20}


@setup_key("projects", scope="game", schema={**_LIST, "minItems": 1},
           doc="Projects beside the Kingdom (not in the Supply); players buy them with the buy_project step",
           example="projects: [Fair, Academy]")
def _setup_projects(game: Game, value: object) -> None:
    for name in _names(game, value, "projects"):
        if name not in in_game(game):
            in_game(game).append(name)
    game.log.add(f"Projects beside the Kingdom: {', '.join(in_game(game))}; each player has two cubes", PROJECTS)


@setup_key("projects", scope="player", schema={**_LIST, "maxItems": CUBES},
           doc="Projects the player already has a cube on (bought on an earlier turn); they are put in the game",
           example="projects: [Barracks]")
def _setup_player_projects(game: Game, p: Player, value: object) -> None:
    names = _names(game, value, f"{p.name}'s projects")
    if len(names) > CUBES or len(set(names)) < len(names):
        raise ScenarioError("setup", f"{p.name}'s projects: at most two different Projects (two cubes each)")
    for name in names:
        if name not in in_game(game):
            in_game(game).append(name)
        place_cube(game, p, name)


@expect_key("projects", scope="player", schema=CARD_LIST, doc="the Projects the player has a cube on, in order",
            example="Alice: {projects: [Fair]}")
def _expect_projects(game: Game, p: Player) -> list[str]:
    return projects_of(game, p)


@step_kind("buy_project", schema={"type": "string"}, cards=True,
           doc="Buy a Project with a Buy, paying its printed cost from the money pool, and put a cube on it",
           example="buy_project: Fair")
def _step_buy_project(game: Game, p: Player, value: list[str]) -> None:
    for name in value:
        buy_project(game, p, name)
