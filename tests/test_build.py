"""`rulings build`, `rulings stats`, `rulings card` on the real corpus.

The session-scoped ``built_index`` fixture (tests/conftest.py) runs the real
build once; the tests here check what a user of the commands relies on.
"""
from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from app import config
from app.cli import main
from app.corpus.sources import CorpusError
from app.store.build import build, needs_build, read_meta


@pytest.fixture
def cli(built_index, monkeypatch, capsys):
    monkeypatch.setenv("RULINGS_INDEX_DIR", str(built_index))

    def run(*argv: str) -> tuple[int, str, str]:
        code = main(list(argv))
        out = capsys.readouterr()
        return code, out.out, out.err

    return run


def test_stats_counts_match_the_documents(cli):
    code, out, _ = cli("stats", "--json")
    assert code == 0
    s = json.loads(out)
    assert s["chapters"] == 8
    assert s["sections"] == 46 and s["subsections"] == 121
    assert s["common_effects"] >= 43
    assert s["cards"] == 774
    assert s["previous_versions"] == 22
    # 42 entries have their own heading; 35 more were glued onto four lines by the extraction.
    assert s["timing_entries"] == 77
    assert s["index_terms"] == 202
    assert s["faq_sections"] == 21
    assert s["faq_subsections"] == 31
    assert s["faq_cards"] == 47
    assert s["rulebook_descriptions"] == 30 + 20 + 8
    assert s["rulings"] > 2000
    assert s["references"] > 1900
    assert s["references_resolved"] / s["references"] >= 0.98
    assert s["cards_with_facts"] > 600
    assert s["cards_with_german_name"] > 600


def test_card_lookup_ignores_case_apostrophes_and_dashes(cli):
    for spelling in ("king's court", "KINGS COURT", "King\u2019s-Court"):
        code, out, _ = cli("card", spelling, "--json")
        assert code == 0, spelling
        card = json.loads(out)
        assert card["name"] == "King's Court"
        assert card["cost_coins"] == 7 and card["set"] == "Prosperity"


def test_token_entries_are_found_by_their_printed_names(cli):
    # "+1" and "-1" tokens are different entries; the lookup keeps the sign.
    plus = json.loads(cli("card", "Your +1 Card token", "--json")[1])
    minus = json.loads(cli("card", "your -1 card token", "--json")[1])
    assert plus["name"] != minus["name"] and plus["kind"] == minus["kind"] == "token"


def test_card_json_has_rulings_links_and_backlinks(cli):
    code, out, _ = cli("card", "Throne Room", "--json")
    assert code == 0
    card = json.loads(out)
    assert card["german_name"] == "Thronsaal"
    assert card["rulings"], "Throne Room has rulings"
    # "Also see Crown 8" is printed in Throne Room's entry and resolves to that ruling.
    links = [link for r in card["rulings"] for link in r["links"]]
    assert any(link["target_key"] == "crown#r8" for link in links)


def test_card_backlinks_list_the_entries_that_cite_it(cli):
    # "See Possession 6" is printed in dozens of entries; each is a backlink on Possession.
    code, out, _ = cli("card", "Possession", "--json")
    card = json.loads(out)
    sources = {ref["source_key"] for ref in card["referred_by"]}
    assert len(sources) > 20
    assert all(not key.startswith("possession#") for key in sources)


def test_card_text_output_lists_numbered_rulings(cli):
    code, out, _ = cli("card", "Feast")
    assert code == 0
    assert out.startswith("Feast")
    assert " 1. " in out


def test_card_accepts_community_abbreviations_and_german_names(cli):
    assert json.loads(cli("card", "KC", "--json")[1])["name"] == "King's Court"
    assert json.loads(cli("card", "Burggraben", "--json")[1])["name"] == "Moat"
    # "WV" is Worker's Village or Walled Village: ambiguous, so no guess.
    assert cli("card", "WV")[0] == 1


def test_unknown_card_suggests_nearest_names_and_exits_1(cli):
    code, out, err = cli("card", "Thorne Rom")
    assert code == 1
    assert "Throne Room" in err


def test_unknown_card_json_error(cli):
    code, out, _ = cli("card", "Nonexistent Card Name", "--json")
    assert code == 1
    assert json.loads(out)["error"] == "unknown card"


def test_build_is_skipped_when_corpus_unchanged(built_index):
    assert not needs_build(built_index / "rules.db")
    result = build(index_dir=built_index)
    assert result.skipped


def test_build_report_lists_unresolved_references(cli):
    code, out, _ = cli("build", "--report")
    assert code == 0
    summary = out.strip().splitlines()[-1]
    assert summary.startswith("references: ")
    unresolved = int(summary.rsplit("unresolved ", 1)[1])
    listed = [line for line in out.splitlines() if line.startswith("complete-rules.txt:")]
    assert len(listed) == unresolved


def _copy_corpus(tmp_path: Path) -> Path:
    corpus = tmp_path / "corpus"
    shutil.copytree(config.corpus_dir(), corpus, ignore=shutil.ignore_patterns("scenarios"))
    return corpus


def test_missing_document_names_the_file(tmp_path):
    corpus = _copy_corpus(tmp_path)
    (corpus / "bgg-faq.txt").unlink()
    with pytest.raises(CorpusError) as err:
        build(corpus=corpus, index_dir=tmp_path / "index", with_search=False)
    assert "bgg-faq.txt" in str(err.value)


def test_failed_build_keeps_the_good_store(built_index, tmp_path):
    """A corpus whose Card Reference no longer parses stops the build; the old store stays."""
    index = tmp_path / "index"
    shutil.copytree(built_index, index)
    before = read_meta(index / "rules.db")
    corpus = _copy_corpus(tmp_path)
    rules = corpus / "complete-rules.txt"
    lines = rules.read_text(encoding="utf-8").split("\n")
    start = lines.index("Card Reference", 100)
    end = lines.index("Previous versions of some cards", start)
    rules.write_text("\n".join(lines[: start + 1] + lines[end:]), encoding="utf-8")
    with pytest.raises(CorpusError) as err:
        build(corpus=corpus, index_dir=index)
    assert "complete-rules.txt" in str(err.value)
    assert err.value.line is not None
    assert read_meta(index / "rules.db") == before
    conn = sqlite3.connect(index / "rules.db")
    assert conn.execute("select count(*) from cards").fetchone()[0] == 774
    assert not list(index.glob(".rules.db.*.tmp"))


def test_new_committed_word_vectors_rebuild_the_index(monkeypatch):
    """bench/train_embedding.py rewrites app/search/embedding-words.json; the build applies it to every
    document, so a store built with the old vectors is out of date (it once was not: issue #34)."""
    from pathlib import Path

    from app.search import embedding
    from app.store import build as build_mod

    before = build_mod.build_fingerprint()
    real = Path.read_bytes

    def read_bytes(self):
        data = real(self)
        return data + b" " if self.resolve() == embedding.COMMITTED.resolve() else data

    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    assert build_mod.build_fingerprint() != before
