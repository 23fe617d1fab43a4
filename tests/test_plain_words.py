"""Every scenario's log and every question, as a player reads them: no engine names, money with its $.

Generic on purpose: it replays whatever is in corpus/scenarios (the sets added
later included) and asks ``plain_words`` what leaked, so a new card's narration
is checked the day its first scenario lands. The page test renders the log the
way the scenario page shows it, so a template cannot reintroduce a bare number.
"""
from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from app.engine.core.plain_words import leaks, log_leaks

SCENARIOS = sorted((Path(__file__).resolve().parent.parent / "corpus" / "scenarios").glob("*.yaml"))


def _replayed():
    from app.engine import scenario as sc

    for path in SCENARIOS:
        r = sc.replay(sc.load(path), zones=False)
        asked = [q for q, _ in r.game.decider.asked if q.forced() is None]
        if r.needed is not None:
            asked.append(r.needed.question)
        yield path.stem, [e.text for e in r.log.entries], asked


@pytest.fixture(scope="module")
def replayed():
    return list(_replayed())


def _report(found: list[str]) -> str:
    return f"{len(found)} found, first ones:\n" + "\n".join(found[:40])


def test_the_checker_finds_what_the_issue_found():
    """The phrases issue #35 quotes are caught; their plain rewrites are not."""
    for bad in ["Bob plays Mining Village (it stays in mat:Tavern: it was lost track of)",
                "leaving it where it is (supply)", "Alice gains Silver to set_aside", "Alice buys Masterpiece for 2",
                "+$1 (money pool: 3)", "Alice plays Throne Room with Royal Carriage again", "see throne-room",
                "it is in in_play", "['Copper']"]:
        assert leaks(bad), bad
    for good in ["Alice buys Masterpiece for $2 (money pool now $3, Buys left 0)", "+$1 (money pool: $3)",
                 "Alice plays Throne Room again, with Royal Carriage", "Feast stays in the trash",
                 "Alice draws 2 cards: Silver, Gold", "Bob's turn 1 starts (1 Action, 1 Buy, empty money pool)"]:
        assert not leaks(good), (good, leaks(good))
    assert log_leaks(["Alice plays Feast", "Feast is no longer in play, so it is not trashed again"])
    assert not log_leaks(["Alice trashes Feast", "Feast is no longer in play, so it is not trashed again"])


def test_every_scenario_log_is_in_plain_words(replayed):
    found = [f"{name}: {x}" for name, lines, _ in replayed for x in log_leaks(lines)]
    assert not found, _report(found)


def test_every_question_is_in_plain_words_and_names_its_card(replayed):
    """A question says which card it is about ("call Royal Carriage to replay Throne Room?", not "...replay it?")."""
    from app.engine.core.registry import defined_cards

    names = re.compile(r"\b(?:" + "|".join(re.escape(n) for n in sorted(defined_cards(), key=len, reverse=True))
                       + r")(?:s|es)?\b")
    found = []
    for name, _, asked in replayed:
        for q in asked:
            found += [f"{name}: {x} in {q.prompt!r}" for x in leaks(q.prompt)]
            if not names.search(q.prompt) and not q.about:
                found.append(f"{name}: names no card: {q.player}: {q.prompt!r}")
            if re.search(r"\b(?:replay|play|trash|discard) it\?$", q.prompt):
                found.append(f"{name}: 'it' with nothing it refers to: {q.prompt!r}")
    assert not found, _report(found)


class _LogText(HTMLParser):
    """The text of each ``ol.log li`` on a page (citations included, as a player sees them), and any
    number standing alone in an element of its own (a step or turn number with no label)."""

    def __init__(self):
        super().__init__()
        self.items: list[str] = []
        self.bare: list[str] = []
        self._depth = 0

    def handle_starttag(self, tag, attrs):
        if tag == "ol" and ("class", "log") in attrs:
            self._depth = 1
        elif self._depth and tag == "li":
            self.items.append("")

    def handle_endtag(self, tag):
        if tag == "ol" and self._depth:
            self._depth = 0

    def handle_data(self, data):
        if self._depth and self.items:
            if re.fullmatch(r"\s*\d+\s*", data):
                self.bare.append(data.strip())
            self.items[-1] += data


def test_every_scenario_page_shows_its_log_in_plain_words(client):
    """The scenario pages as served: no line starts with an unlabelled number, nothing internal leaks."""
    found = []
    for path in SCENARIOS:
        resp = client.get(f"/scenarios/{path.stem}")
        assert resp.status_code == 200, path.stem
        parser = _LogText()
        parser.feed(resp.get_data(as_text=True))
        assert parser.items, f"{path.stem}: no log on the page"
        if parser.bare:
            found.append(f"{path.stem}: {len(parser.bare)} numbers with no label in the log, e.g. {parser.bare[0]!r}")
        for item in parser.items:
            text = " ".join(item.split())
            found += [f"{path.stem}: {x} in {text!r}" for x in leaks(text)]
    assert not found, _report(found)
