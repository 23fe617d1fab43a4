"""Search quality for the weak question types of issue #3: ordinary words that are card names,
player phrases vs rulebook words, rulings that only point elsewhere, "does X count as Y"."""
from __future__ import annotations

import pytest

from app.search.phrases import PhraseTable, load_phrases
from app.search.query import search


def _keys(result, n=3):
    return [r["key"] for r in result["results"][:n]]


def test_count_as_verb_is_not_the_card_count(store):
    out = search(store, "does gaining a card count as buying it")
    assert "count" not in [c["slug"] for c in out["cards"]]
    assert not any(r.get("card") == "count" for r in out["results"][:5])


def test_the_card_count_is_still_found_as_a_name(store):
    for q in ("count", "Count", "does Count count as an attack"):
        out = search(store, q)
        assert [c["slug"] for c in out["cards"]] == ["count"], q
        assert out["results"][0].get("card") == "count", q


def test_an_ordinary_word_next_to_another_card_name_is_read_as_a_card(store):
    out = search(store, "throne room and count")
    assert {c["slug"]: c["weak"] for c in out["cards"]}.get("count") is False


def test_counts_as_question_matches_a_concept_on_each_side(store):
    phrases = {c["phrase"].lower() for c in search(store, "does a curse count as a victory card")["concepts"]}
    assert any("curse" in p for p in phrases) and any("victory" in p for p in phrases), phrases


def test_a_pointer_ruling_brings_its_resolved_target(store):
    """Throne Room's ruling 1 only says where the answer is; the refs table says which section that is."""
    ruling = store.row("select text from rulings where key='throne-room#r1'")
    assert ruling["text"].strip().lower().startswith("see")
    targets = {r["target_key"] for r in store.rows(
        "select target_key from refs where source_key='throne-room#r1' and resolved=1")}
    assert targets
    out = search(store, "throne room")
    # the target section, or the paragraph of it that the page shows for it (a section is shown by its
    # best-matching paragraph, with that paragraph's anchor)
    shown = {k.split("#p")[0] for k in _keys(out)}
    assert targets & shown, _keys(out)


def test_a_ruling_that_says_more_than_a_pointer_is_not_followed(store):
    # Feast 1 explains the ruling and only ends with "Also see ..."; its target is not pulled up
    targets = {r["target_key"] for r in store.rows(
        "select target_key from refs where source_key='feast#r1' and resolved=1")}
    out = search(store, "throne room feast")
    out["results"] = [r for r in out["results"] if r["kind"] != "scenario"]     # the scenario leads (issue #13)
    assert out["results"][0]["key"] == "feast#r1"
    assert not targets & set(_keys(out, 2))


def test_player_phrases_reach_the_rulebook_words(store):
    out = search(store, "what happens if I play a card twice")
    assert any(k.startswith(("iii-card-abilities-playing-a-card-multiple-times", "vi-play-a-card-multiple-times",
                             "faq-9-2")) for k in _keys(out)), _keys(out)


def test_phrase_table_expands_whole_words_longest_first():
    table = PhraseTable(load_phrases())
    assert "concurrent" in table.expand("who decides when two things happen at the same time")
    assert "choose" in table.expand("who decides when two things happen at the same time")
    assert table.expand("the same timeline") == ""             # whole words only: "same time" + "line" is not it
    assert table.expand("play it twice").count("multiple times") == 1


def test_a_coin_bonus_is_read_whatever_its_amount():
    # "+$2" leaves the analyser no word at all; the Terms used on cards write it "+$x"
    table = PhraseTable(load_phrases())
    assert "money pool" in table.expand("what does +$2 do")
    assert "money pool" in table.expand("is +$10 from Bank the same")
    assert "money pool" not in table.expand("throne room + 2 coppers")     # a joiner, not a bonus
    assert "money pool" not in table.expand("it costs $2")


def test_a_coin_bonus_question_finds_the_term_that_defines_it(store):
    out = search(store, "what does +$2 do")
    assert "ii-terms-used-on-cards#p2" in _keys(out), (out.get("reason"), _keys(out))


def test_a_phrase_listed_twice_is_an_error_naming_both_lines(tmp_path):
    # the table keeps one meaning per phrase: a second row used to replace the first without a word
    bad = tmp_path / "query-phrases.csv"
    bad.write_text("phrase,adds\nsame time,concurrent\nwho decides,chooses\nSame  Time,simultaneously\n",
                   encoding="utf-8")
    with pytest.raises(ValueError, match=r"query-phrases\.csv:4: the phrase 'Same  Time' is already on line 2"):
        load_phrases(bad)
    bad.write_text("phrase,adds\nmüll,trash\nmuell,trash pile\n", encoding="utf-8")     # umlauts as typed
    with pytest.raises(ValueError, match=r"query-phrases\.csv:3: .* already on line 2"):
        load_phrases(bad)


def test_phrase_table_errors_name_file_and_line(tmp_path):
    bad = tmp_path / "query-phrases.csv"
    bad.write_text("phrase,adds\nat the same time,concurrent\nwho decides\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"query-phrases\.csv:3:"):
        load_phrases(bad)
    bad.write_text("words,more\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"query-phrases\.csv:1:"):
        load_phrases(bad)


def test_a_malformed_phrase_table_is_a_clear_reason_not_a_crash(store, tmp_path, monkeypatch):
    import app.search.query as query_mod
    from app.search.query import EngineCache

    bad = tmp_path / "data"
    bad.mkdir()
    (bad / "query-phrases.csv").write_text("phrase,adds\nempty pile\n", encoding="utf-8")
    monkeypatch.setenv("RULINGS_CORPUS_DIR", str(tmp_path))
    monkeypatch.setattr(query_mod, "_ENGINES", EngineCache())     # a fresh engine reads the table
    out = search(store, "empty pile")
    assert out["results"] == []
    assert "query-phrases.csv:2:" in out["reason"]
