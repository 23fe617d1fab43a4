"""Ordinary words typed wrong are read as the word meant; card names typed wrong stay cards."""
from __future__ import annotations

import pytest

from app.search.query import search
from app.search.spelling import Speller


def _read(result):
    return {c["typed"]: c["read"] for c in result["spelling"]}


def test_misspelt_rule_words_are_searched_as_the_words_meant(store):
    result = search(store, "can I reshufle my discrad pile", 10)
    assert _read(result) == {"reshufle": "reshuffle", "discrad": "discard"}
    keys = [r["key"] for r in result["results"][:3]]
    assert any("from-your-deck" in k or "your-deck" in k for k in keys), keys


def test_a_question_of_misspelt_words_only_still_finds_rules(store):
    result = search(store, "atack on my oponent", 10)
    assert _read(result) == {"atack": "attack", "oponent": "opponent"}
    assert result["results"]


def test_a_common_word_typed_wrong_is_not_guessed_as_a_card(store):
    # "hapens" is one edit from "hapen" (Haven's name without its plural s) and from "happens"
    result = search(store, "what hapens when the suply runs out", 10)
    assert not result["cards"]
    assert _read(result) == {"hapens": "happens", "suply": "supply"}
    assert "vi-empty-supply-piles#p1" in [r["key"] for r in result["results"][:3]]


@pytest.mark.parametrize("query, card", [("libary", "library"), ("withc", "witch"), ("chappel trashing", "chapel"),
                                         ("thorne room on a vilage", "throne-room"), ("masqurade", "masquerade")])
def test_card_names_typed_wrong_are_still_read_as_cards(store, query, card):
    result = search(store, query, 5)
    assert card in [c["slug"] for c in result["cards"]]
    assert not result["spelling"]


@pytest.mark.parametrize("query", ["when does the game end", "Darf ich Burggraben spielen", "Kann ich zweimal kaufen",
                                   "can I buy nothing"])
def test_words_spelled_right_and_german_questions_are_left_alone(store, query):
    assert search(store, query, 5)["spelling"] == []


@pytest.mark.parametrize("word", ["sleeves", "stacking", "chaining", "cheating", "rematch", "hoarding"])
def test_players_words_the_corpus_lacks_are_not_turned_into_other_words(store, word):
    """Two letters off is another word more often than a typo: "stacking" is not "starting"."""
    assert search(store, f"{word} rules", 5)["spelling"] == []


def test_card_names_and_german_words_are_never_the_correction():
    speller = Speller({"discard": [40, 40, 10], "village": [30, 40, 5], "cellar": [0, 9, 0], "nicht": [300, 300, 5],
                       "night": [0, 80, 40]}, frozenset({"village"}), frozenset(), frozenset({"nicht"}))
    assert speller.nearest("discrad") == ("discard", 1, 50)
    assert speller.nearest("vilage") is None        # a card's name: the name index reads it
    assert speller.nearest("celar") is None         # used only capitalised (a name), never as a word
    assert speller.nearest("nibht") == ("night", 1, 40)     # not the German word, used more often


def test_four_letters_are_read_only_as_the_one_common_word_a_letter_away():
    speller = Speller({"draw": [50, 50, 10], "token": [30, 30, 20], "taken": [30, 30, 5], "pile": [90, 90, 40],
                       "rare": [2, 2, 1], "rarer": [1, 1, 1]}, frozenset({"pixie"}), frozenset())
    assert speller.nearest("drwa") == ("draw", 1, 60)
    assert speller.nearest("tken") is None          # token or taken: a guess either way
    assert speller.nearest("pixe") is None          # as near to Pixie as to "pile"
    assert speller.nearest("rrae") is None          # "rare" is not used often enough to be sure


def test_four_letters_are_read_as_the_one_word_or_card_they_are_a_slip_from():
    """A letter left out of a five-letter word ("frst") is read when that is the one slip reading; another
    letter typed in its place ("part", "sort" for "sart") is no rival, and a card is read only when no word
    is a letter away: the name index leaves four letters alone."""
    speller = Speller({"first": [90, 90, 30], "fort": [10, 10, 3], "start": [200, 200, 50], "part": [50, 50, 10],
                       "sort": [5, 5, 1], "token": [30, 30, 20], "taken": [30, 30, 5]},
                      frozenset({"elder", "pixie"}), frozenset())
    assert speller.nearest("frst") == ("first", 1, 120)
    assert speller.nearest("sart") == ("start", 1, 250)
    assert speller.nearest("eldr") == ("elder", 1, 0)
    assert speller.nearest("tken") is None          # two slip readings: a guess either way


def test_a_word_typed_wrong_before_an_apostrophe_is_read(store):
    result = search(store, "what can I do on my opponnent's turn", 10)
    assert _read(result) == {"opponnent": "opponent"}
    from app.search.query import engine_for, plan_query

    assert plan_query(engine_for(store), "what can I do on my opponnent's turn").text == \
        "what can I do on my opponent's turn"


def test_a_slip_of_the_fingers_is_the_likelier_reading():
    speller = Speller({"state": [40, 60, 30], "start": [300, 300, 200]}, frozenset(), frozenset())
    assert speller.nearest("staet") == ("state", 1, 70)     # two letters swapped, though "start" is commoner
    assert speller.nearest("stary") == ("start", 1, 500)    # one letter for another: the commoner word


def test_a_word_of_a_longer_card_name_is_read_as_the_word(store):
    """"treasure" is in Treasure Map's name but is not a card: "terasure" is the word, not Treasurer."""
    result = search(store, "trickster terasure back at end of turn", 5)
    assert _read(result) == {"terasure": "treasure"}
    assert [c["slug"] for c in result["cards"]] == ["trickster"]


@pytest.mark.parametrize("query, card", [("can theif take a potion from the trash", "thief"),
                                         ("is a staet card in play", None)])
def test_swapped_letters_beat_a_common_word_one_letter_off(store, query, card):
    result = search(store, query, 5)
    assert [c["slug"] for c in result["cards"]] == ([card] if card else [])
    assert _read(result) == ({} if card else {"staet": "state"})


def test_short_words_typed_wrong_are_read_when_only_one_word_is_meant(store):
    result = search(store, "put a card on top of my deck when the deck is emty", 5)
    assert _read(result) == {"emty": "empty"}
    assert search(store, "poor house with -1 coin tken", 5)["spelling"] == []


def test_a_card_name_typed_wrong_asks_the_same_question(store):
    """The embedding reads the question's words: a misspelt name must not make it another question."""
    from app.search.query import engine_for, plan_query

    eng = engine_for(store)
    assert plan_query(eng, "throne room snoowy village").question == plan_query(eng, "throne room snowy village").question
    for query in ("throne room snoowy village", "throne room snowy village"):
        # Snowy Village 2: played again by a Throne Room, it gives no +Actions
        assert "snowy-village#r2" in [r["key"] for r in search(store, query, 5)["results"][:3]], query


def test_a_card_named_by_its_abbreviation_asks_the_same_question(store):
    """"BoM feast" is "band of misfits feast" to the embedding too: Feast 1 (its gain does not depend on
    trashing it) first for both, not fourth for the abbreviation."""
    from app.search.query import engine_for, plan_query

    eng = engine_for(store)
    assert plan_query(eng, "BoM feast").question == plan_query(eng, "band of misfits feast").question
    assert search(store, "BoM feast", 5)["results"][0]["key"] == "feast#r1"


def test_the_page_says_how_a_word_was_read(client):
    html = client.get("/search", query_string={"q": "can I reshufle my discrad pile"}).data.decode()
    assert "Read “reshufle” as “reshuffle”, “discrad” as “discard”" in html


def test_the_command_line_says_how_a_word_was_read(store):
    from app.search.commands import format_text

    assert format_text(search(store, "atack on my oponent", 3)).startswith("Read 'atack' as 'attack', 'oponent' as 'opponent'")


def test_a_query_of_many_unknown_words_looks_up_only_a_few(store, monkeypatch):
    """Each lookup is a pass over the vocabulary: a long query of made-up words is bounded, not a cost per word."""
    from app.search import spelling
    from app.search.query import engine_for

    speller = engine_for(store).speller
    calls = []
    real = speller.nearest
    monkeypatch.setattr(speller, "nearest", lambda w: calls.append(w) or real(w))
    search(store, " ".join(f"zorblax{chr(97 + i % 26)}{chr(97 + i // 26)}" for i in range(50)))
    assert len(calls) == spelling.MAX_LOOKUPS
    calls.clear()
    search(store, " ".join(["discrad", "oponent"] * 20))       # a typo repeated is looked up once
    assert sorted(calls) == ["discrad", "oponent"]


def test_a_short_word_several_words_are_a_letter_from_is_offered_each_reading(store):
    # "toos" is "too", the card Tools or "took"; guessing one was wrong as often as right, so it is searched
    # as typed and each reading is offered with the question it makes
    result = search(store, "toos on the tavern mat", 10)
    assert result["spelling"] == []
    [offer] = result["did_you_mean"]
    assert offer["typed"] == "toos"
    reads = {o["read"]: o["query"] for o in offer["options"]}
    assert reads["too"] == "too on the tavern mat" and reads["Tools"] == "Tools on the tavern mat"
    assert len(reads) <= 3


@pytest.mark.parametrize("query", ["can I reshufle my discrad pile", "emty supply pile", "can i trash a cypt",
                                   "moat blocks witch", "Was kostet Burggraben?"])
def test_no_reading_is_offered_for_words_read_or_known(store, query):
    # read as one word ("emty" is "empty") or card ("cypt" is Crypt), spelt right, or German
    assert search(store, query, 10)["did_you_mean"] == []


def test_the_results_page_links_each_reading(client):
    page = client.get("/search?q=tken+on+a+pile").get_data(as_text=True)
    assert "did you mean" in page
    assert 'href="/search?q=token%20on%20a%20pile"' in page and 'href="/search?q=taken%20on%20a%20pile"' in page


def test_readings_are_looked_up_for_a_bounded_number_of_words(store):
    from app.search.spelling import MAX_LOOKUPS

    # each look-up is a pass over the vocabulary: after MAX_LOOKUPS made-up words no more are looked up, so
    # a real slip after them is searched as typed with no reading offered
    made_up = " ".join(f"qx{a}{b}" for a, b in zip("bcdfghjklmnp", "zvwzvwzvwzvw"))[: 5 * MAX_LOOKUPS]
    assert search(store, "tken " + made_up, 10)["did_you_mean"][0]["typed"] == "tken"
    assert search(store, made_up + " tken", 10)["did_you_mean"] == []
