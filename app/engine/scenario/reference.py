"""The reference tables of docs/scenario-format.md, generated from the scenario schema.

Why generated: the schema validates the files, so the tables written from it
cannot drift from what the loader accepts, and a key a mechanism registers in
``extensions.py`` (a set's new step) is listed the moment it exists.
``python -m app.engine.scenario.reference --write`` rewrites the part of the doc
between the two markers; ``tests/test_scenario_docs.py`` fails while it is stale.
"""
from __future__ import annotations

import sys
from pathlib import Path

from app.engine.scenario.schema import published_schema

DOC = Path(__file__).resolve().parents[3] / "docs" / "scenario-format.md"
BEGIN = "<!-- BEGIN GENERATED from the scenario schema: python -m app.engine.scenario.reference --write -->"
END = "<!-- END GENERATED -->"


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _table(title: str, props: dict, required: list[str] = ()) -> list[str]:
    out = [f"#### {title}", "", "| key | what it means | example |", "| --- | --- | --- |"]
    for name, p in props.items():
        desc = p.get("description", "")
        if name in required:
            desc += " (required)"
        if p.get("x-registered"):
            desc += " (registered by a mechanism)"
        example = p.get("x-example", "")
        out.append(f"| `{_cell(name)}` | {_cell(desc)} | {'`' + _cell(example) + '`' if example else ''} |")
    return out + [""]


def generate() -> str:
    """The generated Markdown: one table per place a key can appear."""
    s = published_schema()
    defs = s["$defs"]
    parts = [BEGIN, "",
             "The tables below are generated from the JSON Schema served at `/api/scenario-schema.json` "
             "(the one that validates every file).", ""]
    parts += _table("Top level", s["properties"], s.get("required", []))
    parts += _table("A player (`players: [...]`)", defs["player"]["properties"], defs["player"].get("required", []))
    parts += _table("A step (`steps: [...]`; exactly one action per step)", defs["step"]["properties"])
    parts += _table("`expect` (checked after a step or at the end); any other key is a player's name",
                    defs["expect"]["properties"])
    parts += _table("A player's `expect` (`expect: {Alice: {...}}`)", defs["playerExpect"]["properties"])
    parts += [END]
    return "\n".join(parts)


def current(text: str, begin: str = BEGIN, end: str = END) -> str | None:
    """The generated part of the doc as it stands (between ``begin`` and ``end``), or None when a marker is missing."""
    if begin not in text or end not in text:
        return None
    start = text.index(begin)
    return text[start:text.index(end, start) + len(end)]


def rewrite(path: Path, new: str, begin: str = BEGIN, end: str = END, heading: str = "## Reference") -> bool:
    """Replace the generated part between the markers with ``new`` (appended under ``heading`` when the doc has
    no markers yet); True when the file changed. The docs' other generated table (labels.py) uses it too."""
    text = path.read_text(encoding="utf-8")
    old = current(text, begin, end)
    if old is None:
        text = text.rstrip("\n") + f"\n\n{heading}\n\n" + new + "\n"
    elif old == new:
        return False
    else:
        text = text.replace(old, new)
    path.write_text(text, encoding="utf-8")
    return True


def write(path: Path = DOC) -> bool:
    """Rewrite the generated part; True when it changed."""
    return rewrite(path, generate())


if __name__ == "__main__":
    if "--write" in sys.argv[1:]:
        print("updated" if write() else "already up to date", DOC)
    else:
        print(generate())
