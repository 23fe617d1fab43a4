"""The sandbox's registered moves (call a Reserve card, spend Coffers, buy with overpay, buy an Event)
and the special setup it does itself (Bane, Prizes, Ruins, Knights, Shelters, Spoils/Madman/Mercenary,
Events, Tavern mat, Coffers).

Each move is made through ``sandbox.apply`` (and the page's form where the page matters), then the
game is replayed by the engine: what the rules say happens is what is checked (Complete Rules § IV
Reserve cards, Coffers and Villagers, Overpaying; § I Special setup). Every bad value is refused
before a step is added, naming the move and the field.
"""
from __future__ import annotations

import re
from urllib.parse import parse_qs, urlparse

import pytest

from app.engine import scenario as sc_mod
from app.engine.scenario.extensions import STEP_KINDS
from app.web import sandbox, sandbox_moves


def _state(**fields) -> dict:
    form = {"players": "2", "kingdom": "Village", "p1_name": "Alice", "p1_hand": "Copper*5", "p1_deck": "Copper*5",
            "p2_name": "Bob", "p2_hand": "Copper*5", "p2_deck": "Copper*5", **fields}
    return sandbox.from_setup_form(form)


def _run(state):
    outcome, problem = sandbox.run(state)
    assert problem is None, problem
    return outcome


def _refused(state, form, *phrases):
    before = [dict(s) for s in state["steps"]]
    with pytest.raises(sandbox.SandboxError) as info:
        sandbox.apply(state, form)
    for phrase in phrases:
        assert phrase in str(info.value), str(info.value)
    assert state["steps"] == before          # nothing was added
    return str(info.value)


def _log(outcome) -> str:
    return "\n".join(e["text"] for e in outcome.log)


def _replays_clean(state) -> None:
    """The downloaded file replays in the engine itself, with no error."""
    rp = sc_mod.replay(sc_mod.loads(sandbox.to_yaml(state), "downloaded"))
    assert rp.error is None and rp.ok, rp.error


# ------------------------------------------------------------------ one source of truth
def test_every_registered_step_kind_is_a_sandbox_move_with_a_control():
    sandbox.defined_cards()
    names = sandbox_moves.step_names()
    assert set(names) == set(STEP_KINDS) and {"call", "spend_coffers", "buy_overpay", "buy_event"} <= set(names)
    for name in names:
        move = sandbox_moves.move_for(name)
        assert move is not None and move.label and "_" not in move.label, name
    offers = _run(_state()).legal
    assert set(STEP_KINDS) <= set(offers)


def test_an_unknown_operation_is_refused_by_name():
    _refused(_state(), {"op": "steal"}, "unknown sandbox operation 'steal'")


# ------------------------------------------------------------------ Reserve cards (Complete Rules § IV)
def test_a_reserve_card_on_the_tavern_mat_is_called_at_the_start_of_the_turn():
    state = _state(kingdom="Ratcatcher", p1_hand="Estate, Copper*4", p1_tavern="Ratcatcher")
    assert state["players"][0]["mats"] == {"Tavern": ["Ratcatcher"]}
    outcome = _run(state)
    assert outcome.legal["call"] == ["Ratcatcher"]
    assert {"label": "Tavern mat", "value": "Ratcatcher"} in outcome.table["players"]["Alice"]
    state = sandbox.apply(state, {"op": "call", "card": "ratcatcher"})
    assert state["steps"][-1] == {"call": "Ratcatcher", "answers": []}
    outcome = _run(state)
    assert outcome.question["prompt"] == "trash a card" and "Estate" in outcome.question["options"]
    state = sandbox.apply(state, {"op": "answer", "kind": "cards", "answer": "Estate"})
    outcome = _run(state)
    assert outcome.error is None and outcome.final["trash"] == ["Estate"]
    assert "Ratcatcher" in outcome.final["players"]["Alice"]["in_play"]      # called: into play, not played
    assert outcome.legal["call"] == [] and outcome.legal["actions"] == 1      # calling costs no Action
    _replays_clean(state)


def test_call_is_offered_only_at_the_start_of_the_turn_the_game_began_in():
    state = _state(kingdom="Ratcatcher", p1_tavern="Ratcatcher")
    state = sandbox.apply(state, {"op": "play_treasures"})
    assert _run(state).legal["call"] == []
    _refused(state, {"op": "call", "card": "Ratcatcher"}, "Call a Reserve card: card:", "start of your turn")


def test_call_refuses_a_card_not_on_the_mat_a_missing_card_and_a_long_name():
    state = _state(kingdom="Ratcatcher, Coin of the Realm", p1_tavern="Ratcatcher, Coin of the Realm")
    assert _run(state).legal["call"] == ["Ratcatcher"]     # Coin of the Realm is called after an Action, not now
    _refused(state, {"op": "call", "card": "Coin of the Realm"}, "not one you can choose now", "Ratcatcher")
    _refused(state, {"op": "call", "card": ""}, "Call a Reserve card: choose a card")
    _refused(state, {"op": "call", "card": "x" * 500}, "at most 60 characters")


def test_a_reserve_card_played_goes_to_the_mat_and_its_next_turn_window_is_a_question():
    state = _state(kingdom="Ratcatcher", p1_hand="Ratcatcher, Estate, Copper*3", p1_deck="Estate*5")
    for form in ({"op": "play", "card": "Ratcatcher"}, {"op": "end_turn"}, {"op": "end_turn"}):
        state = sandbox.apply(state, form)
    outcome = _run(state)
    assert outcome.question["kind"] == "yesno" and outcome.question["prompt"].startswith("call Ratcatcher")
    _refused(state, {"op": "call", "card": "Ratcatcher"}, "answer the open question first")
    state = sandbox.apply(state, {"op": "answer", "kind": "yesno", "answer": "yes"})
    state = sandbox.apply(state, {"op": "answer", "kind": "cards", "answer": "Estate"})
    outcome = _run(state)
    assert outcome.error is None and "Estate" in outcome.final["trash"]
    assert "calls Ratcatcher from their Tavern mat" in _log(outcome)
    _replays_clean(state)


# ------------------------------------------------------------------ Coffers (§ IV Coffers and Villagers)
def test_baker_gives_each_player_one_coffers_and_spending_adds_to_the_money_pool():
    state = _state(kingdom="Baker", p1_coffers="3")
    outcome = _run(state)
    assert outcome.legal["spend_coffers"] == {"max": 3}
    assert {"label": "Coffers", "value": "3"} in outcome.table["players"]["Alice"]
    assert {"label": "Coffers", "value": "1"} in outcome.table["players"]["Bob"]      # Baker's setup
    state = sandbox.apply(state, {"op": "spend_coffers", "amount": "2"})
    outcome = _run(state)
    assert outcome.legal["coins"] == 2 and outcome.legal["spend_coffers"] == {"max": 1}
    _replays_clean(state)


@pytest.mark.parametrize("amount, phrase", [
    ("4", "from 1 to 3, found 4"), ("0", "from 1 to 3, found 0"), ("", "enter a number from 1 to 3"),
    ("two", "expected a whole number"), ("-1", "expected a whole number"), ("1.5", "expected a whole number"),
    ("9" * 5000, "expected a whole number"),
])
def test_spending_coffers_is_bounded_by_what_the_player_has(amount, phrase):
    state = _state(kingdom="Village", p1_coffers="3")
    _refused(state, {"op": "spend_coffers", "amount": amount}, "Spend Coffers: amount:", phrase)


def test_no_coffers_no_spending_and_a_bad_coffers_count_in_the_setup_names_its_field():
    _refused(_state(), {"op": "spend_coffers", "amount": "1"}, "Spend Coffers: you have no Coffers")
    with pytest.raises(sandbox.SetupErrors) as info:
        _state(p2_coffers="lots")
    assert set(info.value.errors) == {"p2_coffers"} and "Bob's Coffers" in info.value.errors["p2_coffers"]


# ------------------------------------------------------------------ overpay (§ IV Overpaying)
def test_masterpiece_overpaid_gains_a_silver_per_dollar_overpaid():
    state = _state(kingdom="Masterpiece", p1_hand="Gold, Gold, Copper*3")
    state = sandbox.apply(state, {"op": "play_treasures"})
    outcome = _run(state)
    assert outcome.legal["buy_overpay"] == [{"card": "Masterpiece", "max": 6, "potion": False}]  # $9, costs $3
    state = sandbox.apply(state, {"op": "buy_overpay", "card": "Masterpiece", "overpay": "2"})
    assert state["steps"][-1] == {"buy_overpay": {"card": "Masterpiece", "overpay": 2}, "answers": []}
    outcome = _run(state)
    assert outcome.error is None
    discard = outcome.final["players"]["Alice"]["discard"]
    assert discard.count("Silver") == 2 and "Masterpiece" in discard
    _replays_clean(state)


@pytest.mark.parametrize("form, phrase", [
    ({"overpay": "7"}, "from 1 to 6, found 7"), ({"overpay": "0"}, "from 1 to 6, found 0"),
    ({"overpay": "lots"}, "expected a whole number"), ({}, "overpay: enter a number"),
    ({"card": "Village", "overpay": "1"}, "'Village' is not one you can choose now"),
    ({"card": "", "overpay": "1"}, "choose a card"),
])
def test_overpay_is_bounded_by_the_money_pool_and_offered_only_for_overpay_cards(form, phrase):
    state = _state(kingdom="Masterpiece, Village", p1_hand="Gold, Gold, Copper*3")
    state = sandbox.apply(state, {"op": "play_treasures"})
    _refused(state, {"op": "buy_overpay", "card": "Masterpiece", **form}, "Buy with overpay:", phrase)


def test_no_money_left_over_means_no_overpay():
    state = _state(kingdom="Masterpiece", p1_hand="Copper*3, Estate*2")
    state = sandbox.apply(state, {"op": "play_treasures"})
    assert _run(state).legal["buy_overpay"] == []            # $3: Masterpiece costs $3, nothing to overpay
    _refused(state, {"op": "buy_overpay", "card": "Masterpiece", "overpay": "1"}, "Buy with overpay: card:")


# ------------------------------------------------------------------ Events (§ IV Events and Projects)
def test_an_event_not_affordable_is_refused_before_it_becomes_a_step():
    state = _state(kingdom="Village, Expedition, Alms", p1_hand="Copper*2, Estate*3")
    assert state["events"] == ["Expedition", "Alms"]
    outcome = _run(state)
    assert [e["name"] for e in outcome.table["events"]] == ["Expedition", "Alms"]
    _refused(state, {"op": "buy_event", "card": "Expedition"}, "Buy an Event: card:", "not one you can choose now")
    state = sandbox.apply(state, {"op": "buy_event", "card": "Alms"})
    outcome = _run(state)
    assert "buys the Event Alms" in _log(outcome)
    assert outcome.question["prompt"].startswith("gain a card costing up to $4")   # no Treasures in play


# ------------------------------------------------------------------ special setup (§ I) shown on the table
def test_the_sandbox_sets_up_every_special_pile_of_these_sets_itself():
    state = _state(kingdom="Tournament, Young Witch, Cultist, Knights, Hermit, Urchin, Marauder, Alms, Page")
    outcome = _run(state)
    t = outcome.table
    outside = {p["name"]: p for p in t["outside_supply"]}
    assert sorted(outside["Prizes"]["cards"]) == ["Bag of Gold", "Diadem", "Followers", "Princess", "Trusty Steed"]
    assert (outside["Madman"]["count"], outside["Mercenary"]["count"], outside["Spoils"]["count"]) == (10, 10, 15)
    assert {"Treasure Hunter", "Warrior", "Hero", "Champion"} <= set(outside)        # Page's upgrades
    assert t["bane"] == state["bane"] and outcome.final["supply"][t["bane"]] == 10   # an 11th Kingdom pile
    mixed = {m["name"]: m for m in t["mixed_piles"]}
    assert mixed["Knights"]["count"] == 10 and mixed["Ruins"]["count"] == 10      # Ruins: as many as Curses (2p)
    assert [e["name"] for e in t["events"]] == ["Alms"]


@pytest.mark.parametrize("kingdom, choice, expected", [
    ("Village, Marauder", "", True),        # the last Kingdom card listed is from Dark Ages: Shelters
    ("Marauder, Village", "", False),
    ("Marauder, Village", "yes", True),
    ("Village, Marauder", "no", False),
])
def test_shelters_follow_the_rule_or_the_players_choice(kingdom, choice, expected):
    state = _state(kingdom=kingdom, shelters=choice, p1_hand="Estate*3, Copper*2")
    assert state.get("shelters", False) is expected
    hand = _run(state).final["players"]["Alice"]["hand"]
    assert ("Hovel" in hand and "Estate" not in hand) is expected


def test_a_bad_shelters_value_is_a_setup_error_on_its_field():
    with pytest.raises(sandbox.SetupErrors) as info:
        _state(shelters="maybe")
    assert "shelters" in info.value.errors


def test_a_scenario_opened_in_the_sandbox_keeps_its_events_bane_tavern_mat_and_coffers():
    raw = {"title": "t", "players": [{"name": "Ann", "hand": ["Copper"], "mats": {"Tavern": ["Guide"],
                                                                                   "Island": ["Estate"]},
                                      "coffers": 2}, {"name": "Ben", "hand": []}],
           "supply": {"Young Witch": 10, "Guide": 10, "Copper": 10}, "events": ["Alms"], "bane": "Moat",
           "shelters": True, "steps": []}
    form = sandbox.form_from_scenario(raw)
    assert "Alms" in form["kingdom"] and form["p1_tavern"] == "Guide" and form["p1_coffers"] == "2"
    state = sandbox.from_setup_form(form)
    assert state["events"] == ["Alms"] and state["bane"] == "Moat" and state["shelters"] is True
    assert state["players"][0]["mats"] == {"Island": ["Estate"], "Tavern": ["Guide"]}
    assert state["players"][0]["coffers"] == 2
    assert _run(state).legal["call"] == ["Guide"]


# ------------------------------------------------------------------ the page
def _token(resp) -> str:
    assert resp.status_code == 303, resp.get_data(as_text=True)[:400]
    return parse_qs(urlparse(resp.headers["Location"]).query)["s"][0]


def _now(page: str) -> str:
    """The "what now" section and the table: what the player reads (the scenario file is shown apart)."""
    start = page.index('id="now"')
    return page[start:page.index("<h2>Zones</h2>", start)]


def test_the_page_offers_the_moves_and_shows_the_table_in_a_players_words(client):
    tok = _token(client.post("/try", data={
        "op": "setup", "players": "2", "kingdom": "Ratcatcher, Baker, Masterpiece, Tournament, Knights, Alms",
        "p1_name": "Ann", "p1_hand": "Gold*2, Copper*3", "p1_deck": "Copper*5", "p1_tavern": "Ratcatcher",
        "p2_name": "Ben", "p2_hand": "Copper*5"}))
    page = client.get(f"/try?s={tok}").get_data(as_text=True)
    now = _now(page)
    for phrase in ("Call Ratcatcher from your Tavern mat", "Spend Coffers for +$1 each", "(you have 1)",
                   "On the table", "Events beside the Kingdom", "Alms ($0)", "Prizes: Bag of Gold",
                   "Knights pile", "top card", "Tavern mat: Ratcatcher", "Coffers: 1"):
        assert phrase in now, phrase
    assert not re.search(r"\b\w+_\w+\b(?![^<]*>)", re.sub(r"<[^>]+>", " ", now)), "an internal name on the page"
    tok = _token(client.post("/try", data={"s": tok, "op": "play_treasures"}))
    page = client.get(f"/try?s={tok}").get_data(as_text=True)
    assert "Buy Masterpiece and overpay" in _now(page)
    r = client.post("/try", data={"s": tok, "op": "buy_overpay", "card": "Masterpiece", "overpay": "99"})
    body = r.get_data(as_text=True)
    assert r.status_code == 400 and "Buy with overpay: overpay: expected a number from 1 to 6, found 99" in body
    assert "Traceback" not in body
    tok = _token(client.post("/try", data={"s": tok, "op": "buy_overpay", "card": "Masterpiece", "overpay": "3"}))
    page = client.get(f"/try?s={tok}").get_data(as_text=True)
    assert "Ann gained Masterpiece after overpaying $3" in page


def test_the_setup_form_has_tavern_mat_coffers_and_shelters_fields(client):
    page = client.get("/try").get_data(as_text=True)
    for field in ('name="p1_tavern"', 'name="p1_coffers"', 'name="shelters"', "Tavern mat", "Shelters"):
        assert field in page, field
    r = client.post("/try", data={"op": "setup", "players": "1", "kingdom": "Village", "p1_hand": "Copper",
                                  "p1_coffers": "5000"})
    assert r.status_code == 400 and "Alice&#39;s Coffers: expected a number from 0 to 1000" in r.get_data(as_text=True)


def test_tokens_on_piles_and_in_front_of_players_are_on_the_table():
    text = """title: tokens
rulings: [{section: Your turn}]
players:
  - name: Ann
    hand: [Copper]
    token_piles: {+1 Card: Village}
    journey_token: face down
    minus_coin_token: true
    mats: {Island: [Estate]}
    vp_tokens: 2
  - name: Ben
    hand: [Copper]
supply: {Village: 10, Silver: 10}
pile_tokens: {Silver: {Embargo: 2}}
steps: []
"""
    t = _run(sandbox.from_scenario_text(text)).table
    assert "Embargo x2 on Silver" in t["pile_tokens"] and "Ann's +1 Card token on Village" in t["pile_tokens"]
    rows = {r["label"]: r["value"] for r in t["players"]["Ann"]}
    assert rows["Island mat"] == "Estate" and rows["Victory tokens"] == "2"
    assert rows["Journey token"] == "face down" and "-$1 token" in rows
    assert "Ben" not in t["players"]           # nothing in front of Ben: no row


def test_a_step_kind_registered_later_gets_a_plain_bounded_control(client):
    """A set that registers a move the sandbox has no entry for still gets one, bounded by its schema."""
    from app.engine.scenario.extensions import step_kind

    step_kind("knock_test", schema={"type": "integer", "minimum": 1, "maximum": 3},
              doc="Knock on the table N times", example="knock_test: 2")(lambda game, p, value: None)
    try:
        state = _state()
        legal = _run(state).legal
        assert legal["knock_test"] == {"input": "number", "min": 1, "max": 3}
        assert {"op": "knock_test", "label": "Knock on the table N times", "input": "number", "min": 1,
                "max": 3} in sandbox_moves.other_moves(legal)
        _refused(state, {"op": "knock_test", "amount": "4"}, "Knock on the table N times: amount:", "found 4")
        assert sandbox.apply(state, {"op": "knock_test", "amount": "2"})["steps"][-1]["knock_test"] == 2
        page = client.get("/try?s=" + sandbox.encode(_state())).get_data(as_text=True)
        assert "Knock on the table N times" in page
    finally:
        del STEP_KINDS["knock_test"]
