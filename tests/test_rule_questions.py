"""The questions-per-paragraph tables (corpus/data/rule-questions): a maintainer who types a bad row
gets the file and line, and a player's question worded like a row finds the paragraph it is written for."""
from __future__ import annotations

from pathlib import Path

import pytest

from app.corpus import rule_questions as rq
from app.corpus.model import Paragraph, ParsedCorpus, Section
from app.corpus.sources import CorpusError
from app.search.query import engine_for, plan_query, search


def _parsed() -> ParsedCorpus:
    parsed = ParsedCorpus()
    parsed.sections = [Section(slug="ii-game-end", doc="rules", kind="section", title="Game End", line=1, ord=1),
                       Section(slug="german-base", doc="german", kind="german_set", title="Basis", line=1, ord=2)]
    parsed.paragraphs = [Paragraph(section="ii-game-end", ord=1, text="The game ends ...", line=2)]
    return parsed


def _table(tmp_path: Path, text: str | bytes, name: str = "t.csv") -> Path:
    folder = tmp_path / rq.FOLDER
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))
    return path


def test_rows_become_questions_with_their_file_and_line(tmp_path):
    _table(tmp_path, 'key,question\nii-game-end#p1,"when does the game end, exactly"\n\nii-game-end,what if two piles run out\n')
    parsed = _parsed()
    rq.parse_rule_questions(tmp_path, parsed)
    assert [(q.target, q.question, q.key) for q in parsed.rule_questions] == [
        ("ii-game-end#p1", "when does the game end, exactly", "data/rule-questions/t.csv:2"),
        ("ii-game-end", "what if two piles run out", "data/rule-questions/t.csv:4"),
    ]


@pytest.mark.parametrize("text, line, words", [
    ("question,key\n", 1, "header"),
    ("key,question\nii-game-end#p9,when does the game end\n", 2, "is no ruling, FAQ clarification, or paragraph"),
    ("key,question\ngerman-base,was ist das hier bitte\n", 2, "is no ruling, FAQ clarification, or paragraph"),
    ("key,question\nii-game-end,short\n", 2, "8-160 characters"),
    ("key,question\nii-game-end," + "x" * 161 + "\n", 2, "8-160 characters"),
    ("key,question\nii-game-end,when does it end,extra\n", 2, "2 columns"),
    ("key,question\nii-game-end,when does it end\nii-game-end,When does it END\n", 3, "already at data/rule-questions/t.csv:2"),
    ("key,question\n" + "".join(f"ii-game-end,when does the game end {i}\n" for i in range(11)), 12, "more than 10"),
    ("key,question\nii-game-end,\"when does \x01 it end\"\n", 2, "control character"),
    ('key,question\nii-game-end,"when does it end\n', 2, "not valid CSV"),
    ('key,question\nii-game-end,"when does\nthe game end"\n', 3, "spans several lines"),
])
def test_a_bad_row_stops_the_build_naming_file_and_line(tmp_path, text, line, words):
    path = _table(tmp_path, text)
    with pytest.raises(CorpusError) as err:
        rq.parse_rule_questions(tmp_path, _parsed())
    assert err.value.path == str(path) and err.value.line == line, str(err.value)
    assert words in err.value.message


def test_bounds_are_checked_before_reading(tmp_path, monkeypatch):
    path = _table(tmp_path, b"\xff\xfe not utf-8")
    with pytest.raises(CorpusError, match="not UTF-8"):
        rq.parse_rule_questions(tmp_path, _parsed())
    monkeypatch.setattr(rq, "MAX_FILE_BYTES", 10)
    path.write_text("key,question\nii-game-end,when does the game end\n")
    with pytest.raises(CorpusError, match="at most 10"):
        rq.parse_rule_questions(tmp_path, _parsed())


def test_the_committed_tables_are_in_the_store(store):
    """Every row of every table reached the store; the build refuses a table with an unknown key."""
    files = sorted((Path(__file__).resolve().parent.parent / "corpus" / rq.FOLDER).glob("*.csv"))
    assert files, "no question tables"
    rows = sum(max(0, len([l for l in f.read_text(encoding="utf-8").splitlines() if l.strip()]) - 1) for f in files)
    assert store.count("rule_questions") == rows
    targets = {r["target"] for r in store.rows("select target from rule_questions")}
    known = {r["key"] for t in ("paragraphs", "rulings", "faq_clarifications") for r in store.rows(f"select key from {t}")}
    known |= {r["slug"] for r in store.rows("select slug from sections")}
    assert targets <= known


def test_a_question_asked_like_a_row_finds_its_paragraph(store):
    """The first question of each table, asked as written, finds its paragraph (or its section) among
    the first ten hits: the table reaches search (a German one through the word vectors, when it names no card). (Another paragraph saying the same may rank above it; a FAQ
    paragraph restating a rule is shown inside that rule's hit.)"""
    firsts = store.rows("select target, question, file from rule_questions where line = "
                        "(select min(line) from rule_questions r2 where r2.file = rule_questions.file)")
    assert len(firsts) >= 5
    eng = engine_for(store)
    for row in firsts:
        if rq.is_german_table(row["file"]) and plan_query(eng, row["question"]).strong:
            continue        # a German question naming a card reads no German vector (embedding._learn_german)
        hits = search(store, row["question"], 10)["results"]
        keys = [h["key"] for h in hits] + [r["key"] for h in hits for r in h["restated"]]
        section = row["target"].split("#")[0]
        assert any(k == row["target"] or k == section for k in keys), (row, keys)


def test_a_hit_says_which_question_it_answers_only_when_it_is_the_one_asked(store):
    """A player who typed "when does the game end" sees, on the rule that answers it, that their question
    was understood; a hit whose table questions are about something else shows none."""
    row = store.row("select target, question from rule_questions where question = 'when does the game end'")
    assert row is not None
    hits = search(store, row["question"], 10)["results"]
    own = [h for h in hits if h["key"] == row["target"]]
    assert own and own[0]["answers"] == row["question"]
    for q in ("throne room", "moat", "how many provinces"):
        assert not [h for h in search(store, q, 10)["results"] if h.get("answers") and
                    not set(q.split()) & set(h["answers"].lower().split())], q


def test_a_german_table_teaches_the_word_vectors_and_is_not_searched_as_words(store):
    """A German row (german-*.csv) is not indexed with its paragraph: its words matched the German words of
    card questions and pulled rules paragraphs above the card's ruling (blind set 12's card questions R@3 0.875 ->
    0.750). It is kept apart for the word vectors of German questions naming no card (embedding._learn_german)."""
    from app.search.documents import iter_documents
    from app.search.indexer import _fields, name_index_from_store

    rows = store.rows("select target, question, file from rule_questions")
    german = {r["target"]: r["question"] for r in rows if rq.is_german_table(r["file"])}
    assert len(german) >= 500
    seen = 0
    for doc in iter_documents(store, name_index_from_store(store).mentions):
        if doc.key in german:
            seen += 1
            assert german[doc.key] in doc.german_asks and german[doc.key] not in doc.asks
            assert german[doc.key].lower() not in _fields(doc)["text"].lower()
    assert seen == len(german)
