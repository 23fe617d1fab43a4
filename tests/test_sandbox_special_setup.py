"""The sandbox sets up Empires, Nocturne and Renaissance tables itself, as the Complete Rules' Special setup says,
and offers their moves (pay off Debt, spend Villagers, buy a Project, the Night phase).

A player lists Kingdom cards and Landscapes on the setup form and nothing else: the Heirlooms replace Coppers,
the Boons and Hexes decks, the piles outside the Supply and the Zombies in the trash, the split piles, the
Landmarks' VP tokens, the Projects and the Artifacts are on the table (Complete Rules § I Special setup;
§ IV Boons and Hexes, Events and Projects, States and Artifacts, Debt, Coffers and Villagers). Each game is
replayed by the engine, and what it shows or did is what is checked.
"""
from __future__ import annotations

import pytest

from app.web import sandbox
from test_sandbox_moves import _log, _replays_clean, _run


def _state(kingdom: str, hand: str = "Copper*5", deck: str = "Copper*5", **fields) -> dict:
    """A two-player table from the setup form: only the Kingdom (with Landscapes) and Alice's cards typed."""
    form = {"players": "2", "kingdom": kingdom, "p1_name": "Alice", "p1_hand": hand, "p1_deck": deck,
            "p2_name": "Bob", "p2_hand": "Copper*5", "p2_deck": "Copper*5", **fields}
    return sandbox.from_setup_form(form)


def _table(outcome) -> dict:
    t = outcome.table
    return {"landscapes": {x["name"]: x for x in t["landscapes"]},
            "decks": {d["name"]: d for d in t["shared_decks"]},
            "outside": {p["name"]: p["count"] for p in t["outside_supply"]},
            "mixed": {m["name"]: m for m in t["mixed_piles"]},
            "players": {name: {r["label"]: r["value"] for r in rows} for name, rows in t["players"].items()}}


# ------------------------------------------------------------------ Nocturne (§ I Special setup)
@pytest.mark.parametrize("card, heirloom", [("Cemetery", "Haunted Mirror"), ("Shepherd", "Pasture"),
                                            ("Tracker", "Pouch"), ("Pooka", "Cursed Gold"),
                                            ("Secret Cave", "Magic Lamp"), ("Pixie", "Goat"), ("Fool", "Lucky Coin")])
def test_a_kingdom_card_with_an_heirloom_gives_each_player_its_heirloom_instead_of_a_copper(card, heirloom):
    state = _state(card, hand="Estate, Copper*4")
    assert state.get("heirlooms") is True
    final = _run(state).final
    for name, coppers in (("Alice", 9), ("Bob", 10)):      # one Copper fewer each, the first in the hand
        hand = final["players"][name]["hand"]
        cards = hand + final["players"][name]["deck"]
        assert heirloom in hand and cards.count(heirloom) == 1 and cards.count("Copper") == coppers - 1, cards


def test_heirlooms_can_be_left_out_and_a_scenario_file_keeps_its_own_cards():
    state = _state("Tracker", heirlooms="no")
    assert "heirlooms" not in state
    assert "Pouch" not in _run(state).final["players"]["Alice"]["hand"]
    form = sandbox.form_from_scenario({"title": "t", "players": [{"name": "Alice", "hand": ["Copper"]}],
                                       "supply": {"Tracker": 10}, "steps": []})
    assert form["heirlooms"] == "no"
    with pytest.raises(sandbox.SetupErrors) as info:
        _state("Tracker", heirlooms="maybe")
    assert "heirlooms: choose one of the offered options" in str(info.value)


def test_boons_and_hexes_decks_are_shuffled_face_down_and_received_from():
    state = _state("Tracker, Cursed Village", hand="Tracker, Copper*4")
    table = _table(_run(state))
    assert table["decks"]["Boons"] == {"name": "Boons", "count": 12, "discard": []}
    assert table["decks"]["Hexes"]["count"] == 12
    assert table["outside"] == {"Will-o'-Wisp": 12}               # Fate: the Will-o'-Wisp pile (§ I)
    state = sandbox.apply(state, {"op": "play", "card": "Tracker"})
    outcome = _run(state)
    if outcome.question is not None:                              # the Boon may ask something: answer it
        state = sandbox.apply(state, {"op": "answer", "kind": outcome.question["kind"],
                                      "answer": outcome.question["options"][0]})
        outcome = _run(state)
    boons = _table(outcome)["decks"]["Boons"]
    kept = _table(outcome)["players"].get("Alice", {}).get("Boons kept until Clean-up")
    assert boons["count"] == 11 and len(boons["discard"]) + (1 if kept else 0) == 1, boons
    assert "Alice receives" in _log(outcome)


@pytest.mark.parametrize("kingdom, piles", [("Leprechaun", {"Wish": 12}), ("Vampire", {"Bat": 10}),
                                            ("Exorcist", {"Imp": 13, "Ghost": 6, "Will-o'-Wisp": 12}),
                                            ("Tormentor", {"Imp": 13})])
def test_cards_that_use_piles_outside_the_supply_bring_them(kingdom, piles):
    assert _table(_run(_state(kingdom)))["outside"] == piles


def test_necromancer_puts_the_three_zombies_in_the_trash():
    final = _run(_state("Necromancer")).final
    assert sorted(final["trash"]) == ["Zombie Apprentice", "Zombie Mason", "Zombie Spy"]


def test_a_night_card_is_played_by_moving_on_to_the_night_phase():
    state = _state("Night Watchman", hand="Night Watchman, Copper*4", deck="Estate*5")
    legal = _run(state).legal
    assert "Night Watchman" in legal["play"] and legal["night"] == ["Night Watchman"]
    state = sandbox.apply(state, {"op": "night", "card": "Night Watchman"})
    outcome = _run(state)
    assert "moves to the Night phase" in _log(outcome) and "looks at" in _log(outcome)
    with pytest.raises(sandbox.SandboxError) as info:
        sandbox.apply(_state("Village", hand="Copper*5"), {"op": "night", "card": "Ghost"})
    assert "Play in the Night phase: card: no Night card in your hand can be played now" in str(info.value)


# ------------------------------------------------------------------ Empires
def test_a_card_of_a_split_pile_or_of_the_castles_puts_its_whole_pile_in_the_kingdom():
    state = _state("Catapult, Bustling Village, Small Castle, Sir Martin")
    assert {"Catapult/Rocks", "Settlers/Bustling Village", "Castles", "Knights"} <= set(state["supply"])
    mixed = _table(_run(state))["mixed"]
    assert mixed["Catapult/Rocks"]["top"] == "Catapult" and mixed["Settlers/Bustling Village"]["top"] == "Settlers"
    assert (mixed["Castles"]["count"], mixed["Castles"]["top"]) == (8, "Humble Castle")   # one of each, 2 players
    _replays_clean(state)


def test_landmarks_get_their_setup_tokens_and_obelisk_its_pile():
    state = _state("Arena, Obelisk, Aqueduct, Village")
    table = _table(_run(state))
    assert table["landscapes"]["Arena"]["value"] == "12 VP tokens on it"       # 6 per player, 2 players
    assert table["landscapes"]["Obelisk"]["value"] == "chosen pile: Village"   # the only Action pile
    assert "VP x8 on Silver" in _run(state).table["pile_tokens"]               # Aqueduct: 8 on Silver and Gold


def test_debt_is_taken_when_buying_and_paid_off_as_a_move():
    state = _state("Engineer", hand="Gold, Gold, Copper*3")
    state = sandbox.apply(state, {"op": "play_treasures"})
    state = sandbox.apply(state, {"op": "buy", "card": "Engineer"})
    outcome = _run(state)
    assert _table(outcome)["players"]["Alice"]["Debt"] == "4"
    assert outcome.legal["pay_debt"] == {"max": 4, "held": 4}
    state = sandbox.apply(state, {"op": "pay_debt", "amount": "3"})
    outcome = _run(state)
    assert _table(outcome)["players"]["Alice"]["Debt"] == "1" and outcome.legal["coins"] == 6
    _replays_clean(state)


# ------------------------------------------------------------------ Renaissance
def test_projects_listed_with_the_kingdom_are_bought_as_a_move_and_get_a_cube():
    state = _state("Fair, Academy, Village", hand="Gold, Gold, Copper*3")
    assert state["projects"] == ["Fair", "Academy"] and "Fair" not in state["supply"]
    assert _run(state).legal["buy_project"] == []                 # Action phase with $0: nothing to buy yet
    state = sandbox.apply(state, {"op": "play_treasures"})
    assert _run(state).legal["buy_project"] == [{"card": "Fair", "cost": 4}, {"card": "Academy", "cost": 5}]
    state = sandbox.apply(state, {"op": "buy_project", "card": "fair"})
    outcome = _run(state)
    assert _table(outcome)["landscapes"]["Fair"]["value"] == "costs $4; cubes: Alice"
    assert _table(outcome)["players"]["Alice"]["Projects"] == "Fair"
    assert outcome.legal["buys"] == 0 and outcome.legal["buy_project"] == []
    with pytest.raises(sandbox.SandboxError) as info:
        sandbox.apply(state, {"op": "buy_project", "card": "Academy"})
    assert "Buy a Project: card: no Project can be bought now" in str(info.value)
    _replays_clean(state)


def test_villagers_are_spent_for_actions_in_the_action_phase():
    state = _state("Acting Troupe, Village", hand="Acting Troupe, Copper*4")
    assert _run(state).legal["spend_villagers"] is None
    state = sandbox.apply(state, {"op": "play", "card": "Acting Troupe"})
    outcome = _run(state)
    assert outcome.legal["spend_villagers"] == {"max": 4} and outcome.legal["actions"] == 0
    assert _table(outcome)["players"]["Alice"]["Villagers"] == "4"
    state = sandbox.apply(state, {"op": "spend_villagers", "amount": "2"})
    outcome = _run(state)
    assert outcome.legal["actions"] == 2 and _table(outcome)["players"]["Alice"]["Villagers"] == "2"
    with pytest.raises(sandbox.SandboxError) as info:
        sandbox.apply(state, {"op": "spend_villagers", "amount": "3"})
    assert "Spend Villagers: amount: expected a number from 1 to 2, found 3" in str(info.value)
    state = sandbox.apply(state, {"op": "play_treasures"})
    assert _run(state).legal["spend_villagers"] is None            # only in the Action phase
    _replays_clean(state)


def test_artifacts_lie_beside_the_supply_until_taken():
    state = _state("Flag Bearer, Border Guard, Treasurer, Swashbuckler", hand="Gold, Gold, Copper*3")
    table = _table(_run(state))
    for name in ("Flag", "Horn", "Key", "Lantern", "Treasure Chest"):
        assert table["landscapes"][name]["value"] == "beside the Supply, nobody has it yet", name
    state = sandbox.apply(state, {"op": "play_treasures"})
    state = sandbox.apply(state, {"op": "buy", "card": "Flag Bearer"})
    table = _table(_run(state))
    assert table["landscapes"]["Flag"]["value"] == "Alice has it"
    assert table["players"]["Alice"]["Artifacts"] == "Flag"
