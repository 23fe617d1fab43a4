"""The docs' table of "choose one" labels: every fixed label a question offers in the corpus scenarios.

Why: a judge should find a label without running a scenario wrong first (issue #31). Card answers are
card names and yes/no questions take ``yes``/``no``; the labels a judge cannot guess are those of the
"choose one" questions, which each card words its own way. They are collected by replaying every scenario
in ``corpus/scenarios`` and recording each "choose one" question asked (``Decider.record``), with the first
scenario that asks it, so the table says where to see it. ``rulings replay FILE --questions`` lists the
questions of one file, automatic ones included.

``python -m app.engine.scenario.labels --write`` rewrites the part of docs/scenario-format.md between the
markers; ``tests/test_scenario_docs.py`` replays the scenario of every row and checks that its question
still offers those labels (a new scenario does not make the table wrong, only incomplete).
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

from app import config
from app.engine.scenario import reference
from app.engine.scenario.cardnames import real_name

DOC = Path(__file__).resolve().parents[3] / "docs" / "scenario-format.md"
BEGIN = "<!-- BEGIN GENERATED labels: python -m app.engine.scenario.labels --write -->"
END = "<!-- END GENERATED labels -->"
ROW = re.compile(r"^\| (?P<prompt>.*?) \| (?P<labels>.*?) \| `(?P<file>[^`]+)` \|$")


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def collect(folder: Path | None = None) -> list[tuple[str, tuple[str, ...], str]]:
    """(prompt, labels, scenario file) of each differently labelled "choose one" question, sorted by prompt."""
    from app.engine import scenario

    seen: dict[tuple[str, ...], tuple[str, str]] = {}
    for path in sorted((folder or config.scenarios_dir()).glob("*.yaml")):
        try:
            rp = scenario.replay(scenario.load(path), zones=False)
        except Exception:       # a file that does not load is reported by its own test, not here
            continue
        for a in rp.game.decider.record:
            q = a.question
            labels = tuple(str(x) for x in q.option_labels())
            if q.kind != "choice" or all(real_name(x) for x in labels):
                continue         # card names (naming a card): any card in the game
            seen.setdefault(tuple(sorted(labels)), (q.prompt, path.name))
    return sorted(((p, labels, f) for labels, (p, f) in seen.items()), key=lambda r: (r[0].lower(), r[1]))


def generate(rows: list[tuple[str, tuple[str, ...], str]] | None = None) -> str:
    rows = collect() if rows is None else rows
    out = [BEGIN, "", "| question (as asked) | its labels | asked in |", "| --- | --- | --- |"]
    for prompt, labels, file in rows:
        out.append(f"| {_cell(prompt)} | {', '.join('`' + _cell(x) + '`' for x in labels)} | `{file}` |")
    return "\n".join(out + ["", END])


def rows_in(text: str) -> list[tuple[str, list[str], str]]:
    """The rows of the generated table as the doc has them (prompt, labels, file)."""
    part = reference.current(text, BEGIN, END) or ""
    out = []
    for line in part.splitlines():
        m = ROW.match(line)
        if m and m["file"] != "---":
            labels = [x.replace("\\|", "|") for x in re.findall(r"`((?:[^`\\]|\\.)*)`", m["labels"])]
            out.append((m["prompt"].replace("\\|", "|"), labels, m["file"]))
    return out


def write(path: Path = DOC) -> bool:
    return reference.rewrite(path, generate(), BEGIN, END, heading="## Answers: choose-one labels")


if __name__ == "__main__":
    if "--write" in sys.argv[1:]:
        print("updated" if write() else "already up to date", DOC)
    else:
        print(generate())
