"""Scenario files -> store rows: each scenario replayed once at build time.

The pages, the search index and the card pages list scenarios from the store's
``scenarios`` and ``scenario_cards`` tables (see /work/wt/SCENARIO_STORE.md and
docs/scenario-format.md), so one path runs from the YAML files to everything
that shows them: documents -> parsed model -> store -> index / pages. The
replay happens here, once per build; its narrated log is kept, and the line
that settles the scenario's question (the first one citing a ruling the
scenario says it demonstrates) is picked out for search results.
"""
from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from app import config
from app.corpus.card_reference_parser import card_slug, name_key
from app.corpus.model import ParsedCorpus
from app.corpus.text import plain

# Keys of a scenario file whose strings name cards in play: the setup, the steps and
# their answers. The title, the description and the expectations are left out:
# they describe the outcome and would make every card they mention "involved".
_SETUP_SKIP = {"title", "description", "rulings", "expect", "expect_error", "seed", "step_limit", "turn",
               "current", "note"}
_COUNT = re.compile(r"\s*\*\s*\d+\s*$")          # "Copper*5"
_SUFFIX = re.compile(r"\s*\([^)]*\)\s*$")        # "Border Village (when-gain)"


@dataclass
class ScenarioRow:
    """One row of the ``scenarios`` table (JSON columns as Python values until written)."""

    key: str
    title: str
    file: str
    sets: list[str]
    cards: list[str]
    rulings: list[dict[str, Any]]
    ruling_keys: list[str]
    settles: str
    settles_at: int
    log: list[dict[str, Any]]
    ok: bool
    card_rows: list[dict[str, str]] = field(default_factory=list)

    def as_row(self) -> dict[str, Any]:
        return {
            "key": self.key, "title": self.title, "file": self.file,
            "sets": json.dumps(self.sets, ensure_ascii=False),
            "cards": json.dumps(self.cards, ensure_ascii=False),
            "rulings": json.dumps(self.rulings, ensure_ascii=False),
            "ruling_keys": json.dumps(self.ruling_keys, ensure_ascii=False),
            "settles": self.settles, "settles_at": self.settles_at,
            "log": json.dumps(self.log, ensure_ascii=False),
            "ok": int(self.ok),
        }


def _norm_title(t: str) -> str:
    return plain(t).replace("“", "").replace("”", "").replace('"', "").strip().lower()


class _Resolver:
    """Card names and cited items -> the store's canonical names and keys, from the parsed model."""

    def __init__(self, parsed: ParsedCorpus):
        self.entries = {c.slug: c for c in parsed.cards}
        self.rulings = {r.key for r in parsed.rulings}
        self.sections: dict[str, str] = {}
        for s in parsed.sections:
            if s.doc != "rules":
                continue
            for title in [s.title, *(s.aliases or [])]:
                self.sections.setdefault(_norm_title(title), s.key)

    def entry(self, name: str):
        """The Card Reference entry for a card name, following a redirect (Farm -> Harem); a Boon cited as printed
        ("The Earth's Gift") is the entry "Earth's Gift, The"."""
        e = self.entries.get(card_slug(name)) or self.entries.get(name_key(name))
        for _ in range(3):
            if e is None or not getattr(e, "redirect", None):
                break
            e = self.entries.get(card_slug(e.redirect))
        return e

    def card_name(self, name: str) -> str:
        e = self.entry(name)
        return e.name if e is not None else name

    def key(self, cite: dict[str, Any]) -> str | None:
        if "card" in cite:
            e = self.entry(str(cite["card"]))
            base = e.slug if e is not None else card_slug(str(cite["card"]))
            if cite.get("version"):
                base = f"{base}-{card_slug(str(cite['version']))}"
            if cite.get("ruling") is None:
                return base
            key = f"{base}#r{cite['ruling']}"
            return key if key in self.rulings or not self.rulings else base
        if "section" in cite:
            return self.sections.get(_norm_title(str(cite["section"])))
        return None


def _strings(node: Any) -> Iterable[str]:
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for k, v in node.items():
            if isinstance(k, str):
                yield k
            yield from _strings(v)
    elif isinstance(node, (list, tuple)):
        for x in node:
            yield from _strings(x)


def involved_cards(raw: dict[str, Any], known: dict[str, str]) -> list[str]:
    """Canonical names of the cards a scenario's setup, steps and answers name, in first-seen order.

    ``known`` maps lower-cased names (and aliases) to the card facts' names.
    """
    out: dict[str, None] = {}
    parts = [v for k, v in raw.items() if k not in _SETUP_SKIP]
    for text in _strings(parts):
        name = _SUFFIX.sub("", _COUNT.sub("", text)).strip().lower()
        real = known.get(name)
        if real is not None:
            out.setdefault(real, None)
    return list(out)


def _same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    if "card" in a and "card" in b:
        return (card_slug(str(a["card"])) == card_slug(str(b["card"])) and a.get("ruling") == b.get("ruling")
                and (a.get("version") or None) == (b.get("version") or None))
    if "section" in a and "section" in b:
        return _norm_title(str(a["section"])) == _norm_title(str(b["section"]))
    return False


def settling_line(log: list[dict[str, Any]], cited: list[dict[str, Any]]) -> int:
    """Index of the log line that settles the question: the first citing a cited ruling, else the last line."""
    for i, entry in enumerate(log):
        if any(_same(c, r) for c in entry.get("citations") or [] for r in cited):
            return i
    for i in range(len(log) - 1, -1, -1):
        if log[i].get("step") is not None:
            return i
    return max(len(log) - 1, 0)


@dataclass
class Replayed:
    """A scenario file loaded and replayed: all of its row that needs no parsed corpus, so the replays can run
    in another process while the corpus is parsed (``app.store.build``)."""

    key: str
    title: str
    file: str
    names: list[str]                # the cards it involves, as the card facts name them
    sets: list[str]
    rulings: list[dict[str, Any]]
    log: list[dict[str, Any]]
    settles_at: int
    ok: bool


def replay_files(directory: Path) -> tuple[list[Replayed], list[str]]:
    """Replay every scenario file once; a file that does not load is left out with a warning (returned)."""
    from app.corpus.card_facts import facts_for
    from app.engine import scenario as sc_mod
    from app.engine.core.errors import ScenarioError
    from app.engine.scenario.cardnames import spellings

    root = config.corpus_dir().parent
    known = spellings()
    out: list[Replayed] = []
    warnings: list[str] = []
    for path in sorted(directory.glob("*.yaml")) if directory.is_dir() else []:
        try:
            scen = sc_mod.load(path)
            res = sc_mod.replay(scen, zones=False)
        except ScenarioError as exc:
            warnings.append(f"warning: scenario {path.name} left out of the store: {exc}")
            continue
        log = [{"text": e.text, "step": e.step, "citations": e.citations} for e in res.log.entries]
        rulings = [dict(r) for r in scen.rulings]
        names = involved_cards(scen.raw, known)
        for r in rulings:                    # a cited card is involved even when only the rulings name it
            if "card" in r and known.get(str(r["card"]).lower()):
                real = known[str(r["card"]).lower()]
                if real not in names:
                    names.append(real)
        sets = sorted({f.set for f in (facts_for(n) for n in names) if f is not None and f.set})
        try:
            rel = str(path.resolve().relative_to(root.resolve()))
        except ValueError:
            rel = str(path)
        out.append(Replayed(key=path.stem, title=scen.title, file=rel, names=names, sets=sets, rulings=rulings,
                            log=log, settles_at=settling_line(log, rulings), ok=res.ok))
    return out, warnings


def scenario_rows(parsed: ParsedCorpus, directory: Path | None = None,
                  replayed: tuple[list[Replayed], list[str]] | None = None) -> list[ScenarioRow]:
    """The store's rows for the scenario files: ``replayed`` (``replay_files``' result) when the replays ran
    already, else they run here; their citations are resolved against the parsed corpus."""
    if replayed is None:
        replayed = replay_files(directory or config.scenarios_dir())
    done, warnings = replayed
    for line in warnings:
        print(line, file=sys.stderr)
    resolver = _Resolver(parsed)
    out: list[ScenarioRow] = []
    for r in done:
        cards = list(dict.fromkeys(resolver.card_name(n) for n in r.names))
        keys = [k for k in (resolver.key(c) for c in r.rulings) if k]
        log, at = r.log, r.settles_at
        out.append(ScenarioRow(
            key=r.key, title=r.title, file=r.file, sets=r.sets, cards=cards, rulings=r.rulings,
            ruling_keys=list(dict.fromkeys(keys)), settles=log[at]["text"] if log else "", settles_at=at,
            log=log, ok=r.ok, card_rows=[{"scenario": r.key, "card": c} for c in cards]))
    return out
