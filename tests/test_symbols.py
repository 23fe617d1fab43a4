"""Lost symbols ($, VP, Potion, Debt): no silent gap anywhere a player or the API can see (issue #33).

The documents lost their icons in extraction. ``app/corpus/symbols.py`` marks every gap, restores
what ``corpus/data/symbols.csv`` determines and shows the rest as ``[symbol lost]``; these tests
run the gap signatures over the store, the parsed model's source lines and every JSON page.
"""
from __future__ import annotations

import html
import re
import subprocess
import sys
from pathlib import Path

import pytest

from app.corpus.symbols import LOST, coin_words, silent_gaps, symbol_words

ROOT = Path(__file__).resolve().parent.parent

# store table -> (text columns, whether it is German)
TEXT_COLUMNS = {
    "paragraphs": ["text"], "rulings": ["text"], "faq_clarifications": ["text"], "rulebook_cards": ["text"],
    "german_passages": ["text"], "cards": ["name", "text"], "sections": ["title"],
    "index_terms": ["term", "definition"], "previous_versions": ["title"],
}


def _findings(store) -> list[str]:
    out = []
    for table, columns in TEXT_COLUMNS.items():
        for row in store.rows(f"select * from [{table}]"):
            for col in columns:
                for name, context in silent_gaps(row.get(col), german=table == "german_passages"):
                    out.append(f"{table} line {row.get('line')}: {name}: {context!r}")
    return out


def test_no_silent_gap_in_the_parsed_model(store):
    """Every rule paragraph, ruling, FAQ answer, rulebook entry, German passage and card text."""
    found = _findings(store)
    assert not found, f"{len(found)} silent gaps:\n" + "\n".join(found[:60])


def test_the_check_finds_the_gaps_the_issue_names():
    """The signatures catch the gaps as the documents printed them (a check that cannot fail proves nothing)."""
    for text in ("cannot have  or  in its cost", "you get + both times", "(three): +; trash; or gain",
                 "has the most  (Victory points)", "you get +1 Buy, +, and", "Treasures give you  (Coins).",
                 "This Treasure does not give you , but", "you get +3. See"):
        assert silent_gaps(text), text
    for text in ("+$2 and +1 Buy", "Throne Room + Feast", "worth 2 VP if", "cards costing from $3 to $6",
                 "(Crown + Investment means", "a cost such as 3+"):
        assert not silent_gaps(text), text


def test_restorations_read_as_printed(store):
    def ruling(key):
        return store.rows("select text from rulings where key = ?", [key])[0]["text"]

    def para(line):
        return store.rows("select text from paragraphs where line = ?", [line])[0]["text"]

    assert "cannot have Potion or Debt in its **cost**" in para(2340)
    assert "has the most VP (Victory points)" in para(155)
    assert "Treasures give you $ (Coins)" in para(159)
    assert "you get +$3 both times" in ruling("spoils#r1")
    rulebook = store.rows("select text from rulebook_cards where name = 'Messenger'")[0]["text"]
    assert "+1 Buy, +$2, and" in rulebook and "costing up to $4 from the Supply" in rulebook
    assert "+1 VP per card" in ruling("tomb#r1")        # the VP shield after the number, from Tomb's text


def test_what_nothing_determines_is_shown_lost_and_counted(store):
    gaps = store.rows("select * from symbol_gaps")
    lost = [g for g in gaps if g["lost"]]
    restored = [g for g in gaps if not g["lost"] and g["source"] != "not a symbol"]
    assert len(restored) > len(lost) > 0
    shown = sum(str(row.get(col) or "").count(LOST) for table, columns in TEXT_COLUMNS.items()
                for row in store.rows(f"select * from [{table}]") for col in columns)
    assert shown == len(lost)       # each one visible, once


def test_build_report_gives_the_counts(built_index):
    env = {"RULINGS_INDEX_DIR": str(built_index), "PATH": str(Path(sys.executable).parent)}
    out = subprocess.run([sys.executable, "-m", "app.cli", "build", "--report"], capture_output=True, text=True,
                         env=env, cwd=ROOT, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "symbol lost: complete-rules.txt line" in out.stdout
    summary = [line for line in out.stdout.splitlines() if line.startswith("symbols lost in the source documents")]
    assert summary and "restored" in summary[0] and "card text" in summary[0] and "shown as lost" in summary[0]


def test_the_table_is_what_the_tool_writes():
    out = subprocess.run([sys.executable, "tools/make_symbol_table.py", "--check"], capture_output=True, text=True,
                         cwd=ROOT, timeout=300)
    assert out.returncode == 0, out.stderr


def test_symbol_words_for_search_and_screen_readers():
    assert coin_words("+$2") == "+2 coins" and coin_words("$1") == "1 coin"
    assert symbol_words("+1 Buy, +$2, and 1 VP") == "+2 coins 1 victory point"


def _strings(value):
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def test_no_silent_gap_in_any_json_page(client, store):
    """Every card, section, FAQ and rulebook page of the JSON API, scanned as a client would."""
    urls = [f"/api/cards/{c['slug']}" for c in store.rows("select slug from cards")]
    urls += [f"/api/sections/{s['slug']}" for s in store.rows("select slug from sections where doc != 'german'")]
    urls += ["/api/faq", "/api/adventures", "/api/index"]
    found = []
    for url in urls:
        resp = client.get(url)
        assert resp.status_code == 200, url
        for text in _strings(resp.get_json()):
            # HTML is scanned as a browser shows it: the tags gone, whitespace runs collapsed
            if re.search(r"</?(?:p|a|strong|em|span|li|ul|ol|br)\b[^<>]*>", text):
                text = html.unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]*>", "", text)))
            for name, context in silent_gaps(text, german=_is_german(text)):
                found.append(f"{url}: {name}: {context!r}")
    assert not found, f"{len(found)} silent gaps in the API:\n" + "\n".join(found[:60])


def _is_german(text: str) -> bool:
    return any(w in text for w in (" du ", " der ", " die ", " und ", " Geld", " Karte"))
