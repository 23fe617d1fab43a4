"""Scenarios in the store: the build replays every scenario file once (SCENARIO_STORE.md)."""
from __future__ import annotations

import shutil

import yaml

from app import config
from app.store.build import build_fingerprint


def test_every_scenario_file_is_a_row_with_its_title(store):
    files = {p.stem: p for p in config.scenarios_dir().glob("*.yaml")}
    rows = {r["key"]: r for r in store.scenarios()}
    assert set(rows) == set(files)
    for key, row in rows.items():
        assert row["title"] == str(yaml.safe_load(files[key].read_text(encoding="utf-8"))["title"])
        assert row["file"] == f"corpus/scenarios/{key}.yaml"
        assert row["ok"], key
        assert row["log"] and 0 <= row["settles_at"] < len(row["log"])
        assert row["settles"] == row["log"][row["settles_at"]]["text"]


def test_a_row_names_its_cards_sets_rulings_and_the_settling_line(store):
    row = next(r for r in store.scenarios() if r["key"] == "hinterlands-border-village-watchtower-order")
    assert {"Border Village", "Watchtower", "Laboratory", "Gold"} <= set(row["cards"])
    assert {"Hinterlands", "Prosperity"} <= set(row["sets"])
    assert row["rulings"][0] == {"card": "Border Village", "ruling": 2}
    assert row["ruling_keys"] == ["border-village#r2", "watchtower#r1",
                                  "iii-basic-timing-rules-timing-of-concurrent-abilities-or-effects"]
    # The first narrated line citing one of the rulings the scenario demonstrates.
    assert row["settles"] == "Alice resolves Border Village (when-gain) first"
    cites = row["log"][row["settles_at"]]["citations"]
    assert any(c.get("card") in ("Border Village", "Watchtower") or "section" in c for c in cites)


def test_every_cited_item_resolves_to_a_store_key(store):
    keys = {r["key"] for t in ("rulings", "sections", "cards", "previous_versions")
            for r in store.rows(f"select key from {t}")}
    for row in store.scenarios():
        assert len(row["ruling_keys"]) == len(row["rulings"]), row["key"]
        assert set(row["ruling_keys"]) <= keys, row["key"]


def test_scenarios_for_a_card_by_any_store_name(store):
    moat = {r["key"] for r in store.scenarios_for_card("Moat")}
    assert "alchemy-familiar-moat" in moat
    assert {r["key"] for r in store.scenarios_for_card("Burggraben")} == moat
    stone = store.scenarios_for_card("Philosopher's Stone")
    assert "alchemy-philosophers-stone-counts-deck-and-discard" in {r["key"] for r in stone}
    assert store.scenarios_for_card("No Such Card") == []


def test_a_changed_scenario_changes_the_build_fingerprint(tmp_path):
    corpus = tmp_path / "corpus"
    shutil.copytree(config.corpus_dir(), corpus)
    before = build_fingerprint(corpus)
    path = corpus / "scenarios" / "alchemy-familiar-moat.yaml"
    path.write_text(path.read_text(encoding="utf-8").replace("title:", "title: ", 1), encoding="utf-8")
    assert build_fingerprint(corpus) != before


def test_replays_in_a_second_process_are_the_replays_made_here(tmp_path, capsys):
    """The build replays the scenario files in a forked process while it parses the corpus (7 s instead of
    9 s on two cores); what comes back is what replaying here gives, and a file that does not load is
    still left out with a warning naming it."""
    from app.store.build import _replaying
    from app.store.scenarios import replay_files

    for name in ("alchemy-familiar-moat", "hinterlands-border-village-watchtower-order"):
        shutil.copy(config.scenarios_dir() / f"{name}.yaml", tmp_path)
    (tmp_path / "broken.yaml").write_text("title: no steps\nplayers: [\n", encoding="utf-8")
    with _replaying(tmp_path) as replayed:
        there = replayed()
    here = replay_files(tmp_path)
    assert there == here
    done, warnings = there
    assert [r.key for r in done] == ["alchemy-familiar-moat", "hinterlands-border-village-watchtower-order"]
    assert len(warnings) == 1 and "broken.yaml" in warnings[0]
