"""Adventures Events and player tokens: what the scenarios can't show on their own.

Every Event has a definition and is counted as defined by coverage; buying an Event never fires a
when-buy ability; bad setup values are refused with a clear message; the sandbox offers Events.
"""
from __future__ import annotations

import pytest

from app.corpus.card_facts import load_facts
from app.engine.core import activities as act
from app.engine.core.errors import ScenarioError
from app.engine.core.registry import defined_cards, definition, versions
from app.engine.scenario import load, loads, run
from app.engine.scenario.extensions import EXPECT_KEYS, SETUP_KEYS, STEP_KINDS

ADVENTURES_EVENTS = ["Alms", "Ball", "Bonfire", "Borrow", "Expedition", "Ferry", "Inheritance", "Lost Arts",
                     "Mission", "Pathfinding", "Pilgrimage", "Plan", "Quest", "Raid", "Save", "Scouting Party",
                     "Seaway", "Trade", "Training", "Travelling Fair"]


def _game(text: str):
    sc = loads(text, "test")
    res = run(sc)
    return res


BASE = """
title: t
rulings: [{section: "Events and Projects"}]
events: [Alms, Expedition]
players:
  - name: Alice
    hand: [Goons, Copper, Copper, Copper]
  - name: Bob
supply: {Copper: 40, Goons: 10, Smithy: 10}
steps: []
"""


def test_every_adventures_event_is_defined_and_is_an_event_in_the_card_facts():
    events = sorted(f.name for f in load_facts().values() if f.set == "Adventures" and "Event" in f.types)
    assert events == sorted(ADVENTURES_EVENTS)
    defined = set(defined_cards())
    assert [e for e in events if e not in defined] == []
    assert versions("Bonfire") == ["1", "2"] and versions("Plan") == ["1", "2"]


def test_the_format_registers_the_event_step_and_the_token_keys():
    assert "buy_event" in STEP_KINDS
    assert ("game", "events") in SETUP_KEYS
    for key in ("token_piles", "journey_token", "minus_coin_token", "minus_card_token", "estate_token"):
        assert ("player", key) in SETUP_KEYS and ("player", key) in EXPECT_KEYS
    assert "Alms" in SETUP_KEYS[("game", "events")].schema["items"]["enum"]
    assert "Smithy" not in SETUP_KEYS[("game", "events")].schema["items"]["enum"]


def test_buying_an_event_fires_no_when_buy_and_gains_nothing():
    res = _game(BASE.replace("steps: []", "steps: [{play: Goons}, play_treasures, {buy_event: Expedition}]"))
    assert res.ok, res.error
    g = res.game
    alice = g.player("Alice")
    assert alice.vp_tokens == 0                  # Goons: "when you buy a card" did not trigger
    assert g.turn.bought == [] and g.turn.gained == []
    assert g.turn.cleanup_draw == 7 and g.turn.buys == 1 and g.turn.coins == 2


def test_an_event_cannot_be_bought_as_a_card_nor_a_card_as_an_event():
    res = _game(BASE.replace("steps: []", "steps: [{buy: Alms}]"))
    assert res.error is not None and "not in the Supply" in res.error.message
    res = _game(BASE.replace("steps: []", "steps: [{buy_event: Smithy}]"))
    assert res.error is not None and "not an Event in this game" in res.error.message
    res = _game(BASE.replace("steps: []", "steps: [{buy_event: Ball}]"))
    assert res.error is not None and "Ball is not an Event in this game (Events: Alms, Expedition)" \
        in res.error.message


def test_events_are_not_supply_cards():
    with pytest.raises(ScenarioError, match="not a Supply card"):
        loads(BASE.replace("supply: {Copper: 40", "supply: {Alms: 1, Copper: 40"), "test")


def test_bad_token_setup_is_refused_with_what_was_wrong():
    sc = loads(BASE.replace("  - name: Bob", "    token_piles: {+1 Card: Province}\n  - name: Bob"), "test")
    with pytest.raises(ScenarioError, match="'Province' is not a Supply pile"):
        run(sc)
    sc = loads(BASE.replace("  - name: Bob", "    token_piles: {+1 Card: Copper}\n  - name: Bob"), "test")
    with pytest.raises(ScenarioError, match=r":8: Alice's token_piles: .*only go on an Action Supply pile, not Copper"):
        run(sc)
    # the schema knows the Events: a Kingdom card named as one is refused when the file loads, at its line
    with pytest.raises(ScenarioError, match=r":4: events\[1\]: expected .*found 'Smithy'"):
        loads(BASE.replace("events: [Alms, Expedition]", "events: [Smithy]"), "test")


def test_estates_are_actions_only_during_the_turns_of_the_estate_token_owner():
    text = BASE.replace("  - name: Bob", "    estate_token: Smithy\n  - name: Bob\n    hand: [Estate]")
    res = _game(text)
    g = res.game
    bob_estate = g.player("Bob").hand[0]
    assert bob_estate.is_type("Action") and bob_estate.is_type("Command")   # Alice's turn: every Estate
    assert definition(g, "Estate").version == "inherited"
    g.turn.player = 1                                                        # Bob's turn: Estates are Victory only
    assert not bob_estate.is_type("Action")
    assert bob_estate.is_type("Victory")


def test_the_minus_card_token_only_reacts_to_drawing_not_to_revealing():
    text = BASE.replace("  - name: Bob", "    minus_card_token: true\n    deck: [Gold, Silver]\n  - name: Bob")
    g = _game(text).game
    alice = g.player("Alice")
    act.reveal_top(g, alice, 1)
    from app.engine.mechanisms.player_tokens import tokens
    assert tokens(g, alice).minus_card is True
    act.draw(g, alice, 0)                       # drawing 0 does not remove it
    assert tokens(g, alice).minus_card is True
    got = act.draw(g, alice, 1)
    assert got == [] and tokens(g, alice).minus_card is False


def test_mission_turn_is_the_one_without_card_buys_after_an_outpost_turn():
    res = run(load("corpus/scenarios/mission-and-outpost-both-extra-turns.yaml"))
    assert res.ok, res.error or res.failures
    texts = [e.text for e in res.log.entries]
    starts = [i for i, t in enumerate(texts) if "extra turn starts" in t]
    assert len(starts) == 2
    mission = [i for i, t in enumerate(texts) if t.startswith("Mission: no buying cards")]
    assert mission and mission[0] > starts[1]    # set up in the second extra turn, not the Outpost one


def test_the_sandbox_puts_events_beside_the_kingdom_and_offers_them():
    from app.web import sandbox
    state = sandbox.from_setup_form({"players": "2", "kingdom": "Village, Alms, Borrow", "p1_hand": "Copper",
                                     "p2_hand": ""})
    assert state["events"] == ["Alms", "Borrow"] and "Alms" not in state["supply"]
    outcome, err = sandbox.run(state)
    assert err is None and outcome.legal["buy_event"] == ["Alms", "Borrow"]
    state = sandbox.apply(state, {"op": "buy_event", "card": "Borrow"})
    outcome, err = sandbox.run(state)
    assert err is None and outcome.error is None
    assert outcome.legal["buy_event"] == ["Alms"]          # Borrow: once per turn
    with pytest.raises(sandbox.SandboxError, match="is an Event, not a card"):
        sandbox.from_setup_form({"players": "1", "kingdom": "Village", "p1_hand": "Alms"})


def test_a_refused_setup_value_is_an_error_message_on_the_web_and_in_the_cli(tmp_path):
    import subprocess
    import sys

    from app.web import replay as web
    text = BASE.replace("  - name: Bob", "    token_piles: {Trashing: Province}\n  - name: Bob")
    # refused as bad input (the API answers 400, issue 36), naming the key and its line
    with pytest.raises(web.BadScenario, match="token_piles: 'Province' is not a Supply pile") as exc:
        web.replay(web.load_text(text, name="pasted"))
    assert exc.value.line is not None
    f = tmp_path / "bad.yaml"
    f.write_text(text, encoding="utf-8")
    proc = subprocess.run([sys.executable, "-m", "app.cli", "replay", str(f)], capture_output=True, text=True)
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    assert "token_piles: 'Province' is not a Supply pile" in proc.stderr


def test_the_sandbox_page_shows_buy_event_buttons_and_the_bought_event_in_the_log(client):
    from urllib.parse import parse_qs, urlparse

    def token(resp) -> str:
        assert resp.status_code == 303, resp.get_data(as_text=True)[:400]
        return parse_qs(urlparse(resp.headers["Location"]).query)["s"][0]

    tok = token(client.post("/try", data={"op": "setup", "players": "2", "kingdom": "Village, Expedition",
                                          "p1_name": "Ann", "p1_hand": "Gold, Copper", "p1_deck": "Copper*9"}))
    page = client.get(f"/try?s={tok}").get_data(as_text=True)
    assert "Events beside the Kingdom: Expedition" in page
    assert "Buy Event Expedition" not in page            # $0: Expedition costs $3
    tok = token(client.post("/try", data={"s": tok, "op": "play_treasures"}))
    assert "Buy Event Expedition" in client.get(f"/try?s={tok}").get_data(as_text=True)
    tok = token(client.post("/try", data={"s": tok, "op": "buy_event", "card": "Expedition"}))
    page = client.get(f"/try?s={tok}").get_data(as_text=True)
    assert "Ann buys the Event Expedition for $3" in page
    assert "buy_event: Expedition" in page                # the scenario file shown on the page


PRE_2019_INHERITANCE = """
title: t
rulings: [{card: Inheritance}]
versions: {Inheritance: "1"}
events: [Inheritance]
players:
  - name: Alice
    hand: [Gold, Gold, Copper, Estate, Estate]
  - name: Bob
    hand: [Estate]
supply: {Caravan: 10, Smithy: 10, Estate: 8}
steps: [play_treasures, {buy_event: Inheritance, answers: [Caravan]}]
"""


def test_pre_2019_inheritance_sets_aside_a_duration_and_changes_only_the_buyers_own_estates():
    """Pre-2019 Inheritance: "a non-Victory Action card" (a Duration is allowed, rulebook), and only "your
    Estates" get its types (Your Estate token pre-2019 1-2, 7): not Bob's, not those in the Supply."""
    assert versions("Inheritance") == ["1", "2"]
    res = _game(PRE_2019_INHERITANCE)
    assert res.ok, res.error
    g = res.game
    alice, bob = g.players
    assert [c.name for c in alice.set_aside] == ["Caravan"]
    assert all(c.is_type("Action") and c.is_type("Duration") and c.is_type("Victory") for c in alice.hand)
    assert not any(c.is_type("Action") for c in bob.hand)
    assert not g.supply["Estate"][-1].is_type("Action")
    # the current version sets aside a Duration too (Inheritance 5 excludes only Command cards), but Estates
    # are not Durations: they play the Caravan, leaving it set aside (Your Estate token 2)
    current = _game(PRE_2019_INHERITANCE.replace('versions: {Inheritance: "1"}\n', ""))
    assert current.ok, current.error
    assert [c.name for c in current.game.players[0].set_aside] == ["Caravan"]
    assert not any(c.is_type("Duration") for c in current.game.players[0].hand)
