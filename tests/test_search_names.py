"""Card-name recognition as players type names: exact, plural/possessive, typos, abbreviations, German."""
from __future__ import annotations

import pytest

from app.search.names import load_abbreviations
from app.search.query import engine_for


@pytest.fixture(scope="module")
def names(store):
    return engine_for(store).names


def slugs(names, text):
    return [r.slug for r in names.recognize(text)]


def how(names, text):
    return {r.slug: r.how for r in names.recognize(text)}


@pytest.mark.parametrize("typed", ["King's Court", "kings court", "KING’S COURT", "King's court"])
def test_exact_names_ignore_case_and_apostrophes(store, names, typed):
    slug = store.find_card("King's Court")["slug"]
    assert how(names, f"what does {typed} do") == {slug: "exact"}


@pytest.mark.parametrize("typed, card", [("throne rooms", "Throne Room"), ("Feast's", "Feast"),
                                         ("libraries", "Library"), ("two Watchtowers", "Watchtower")])
def test_plural_and_possessive_forms(store, names, typed, card):
    slug = store.find_card(card)["slug"]
    assert how(names, typed).get(slug) == "plural"


@pytest.mark.parametrize("typed, card", [("horse trader", "Horse Traders"), ("jack of all trade", "Jack of All Trades"),
                                         ("garden", "Gardens"), ("a smuggler", "Smugglers")])
def test_a_plural_name_typed_in_the_singular(store, names, typed, card):
    """Players drop the final s of Horse Traders; reading "trader" alone as Trader named the wrong card."""
    assert slugs(names, f"{typed} with a village") == [store.find_card(card)["slug"], "village"]


def test_a_singular_name_is_not_read_as_a_plural_one(store, names):
    assert slugs(names, "trader and village") == [store.find_card("Trader")["slug"], "village"]


@pytest.mark.parametrize("typed, card", [("thorne room", "Throne Room"), ("libary", "Library"),
                                         ("possesion", "Possession"), ("wachtower", "Watchtower")])
def test_typos_within_two_edits_including_swapped_letters(store, names, typed, card):
    found = names.recognize(f"can I use {typed} here")
    assert [(r.slug, r.how) for r in found] == [(store.find_card(card)["slug"], "fuzzy")]
    assert 1 <= found[0].distance <= 2


@pytest.mark.parametrize("typed, card", [("chappel", "Chapel"), ("liberry", "Library"), ("smugler", "Smugglers"),
                                         ("tresury", "Treasury")])
def test_seven_letters_take_two_typos(store, names, typed, card):
    assert [(r.slug, r.how) for r in names.recognize(f"{typed} on my turn")] == [(store.find_card(card)["slug"], "fuzzy")]


def test_a_short_typo_as_near_to_two_names_names_neither(names):
    # "baroe" is one letter from both Baron and Barge: guessing would answer about the wrong card
    assert slugs(names, "baroe on my turn") == []


def test_a_short_typo_that_is_a_slip_from_one_name_only_names_it(names):
    # "tradr" is a letter left out of Trader, and Trade with another letter in its place: a thumb's slip
    # (issue #34, found by typing the question tables' card names wrong)
    assert slugs(names, "tradr gain silver") == ["trader"]


@pytest.mark.parametrize("text", ["the attack doesn't hurt me", "what if I couldn't do it"])
def test_players_words_from_the_question_tables_are_not_typos(names, text):
    """'hurt' is one letter from Hort (Hoard's German name), "couldn't" two from Count; neither is in the
    rulebook's text, but players' questions (corpus/data/rule-questions) use them, so they are words."""
    assert slugs(names, text) == []


def test_ordinary_words_are_not_corrected_into_cards(names):
    assert slugs(names, "can I play a card from my hand when it is not my turn") == []


@pytest.mark.parametrize("abbr, card", [("TR", "Throne Room"), ("KC", "King's Court"), ("BoM", "Band of Misfits"),
                                        ("kc", "King's Court")])
def test_community_abbreviations(store, names, abbr, card):
    assert how(names, f"{abbr} feast").get(store.find_card(card)["slug"]) == "abbreviation"


def test_an_abbreviation_shared_by_two_cards_gives_both(names):
    wv = {card for abbr, card in load_abbreviations() if abbr == "WV"}
    assert len(wv) == 2
    assert {names.names[s] for s in slugs(names, "WV")} == wv


def test_every_abbreviation_names_a_card_in_the_store(store):
    rows = load_abbreviations()
    assert len(rows) >= 20
    missing = [(a, c) for a, c in rows if store.find_card(c) is None]
    assert missing == []


@pytest.mark.parametrize("german", ["Burggraben", "Hexe", "Thronsaal"])
def test_german_names(store, names, german):
    expected = store.row("select card from german_names where german=? and card is not null", (german,))["card"]
    assert how(names, f"{german} Frage") == {expected: "german"}


def test_two_cards_in_one_question(store, names):
    assert slugs(names, "Watchtower Border Village which goes first") == [
        store.find_card("Watchtower")["slug"], store.find_card("Border Village")["slug"]]


def test_mentions_find_capitalised_names_in_rulings(store, names):
    text = store.row("select text from rulings where key='feast#r1'")["text"]
    assert {"feast", "throne-room"} <= set(names.mentions(text))


def test_bad_abbreviation_file_names_file_and_line(tmp_path):
    bad = tmp_path / "abbreviations.csv"
    bad.write_text("abbreviation,card\nTR,Throne Room\nKC\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"abbreviations.csv:3"):
        load_abbreviations(bad)


@pytest.mark.parametrize("typed, cards", [
    ("watch tower + mine", ["Watchtower", "Mine"]),            # issue #13: one name written as two words
    ("minning village trash for money", ["Mining Village"]),  # a typo beside an exact one-word name
    ("fishing vilage", ["Fishing Village"]),
    ("great hall and market square", ["Great Hall", "Market Square"]),   # real two-word names stay
    # issue #34: beside a name read in the plural ("traders" is Trader), and across the words between
    ("hoorse traders reaction", ["Horse Traders"]),
    ("jak of all trades draw", ["Jack of All Trades"]),
    ("two villages and a throne room", ["Village", "Throne Room"]),
])
def test_names_split_or_misspelt_beside_another_name(names, typed, cards):
    assert [r.name for r in names.recognize(typed)] == cards
