"""The two commands the CLI exposes: ``rulings replay FILE [--json]`` and ``rulings coverage [--json]``."""
from __future__ import annotations

import json
import sys
from collections import Counter, defaultdict

from app import config
from app.engine import scenario as sc_mod
from app.engine.core.errors import EngineError, ScenarioError
from app.engine.core.decisions import written
from app.engine.core.narrate import render_citation
from app.engine.core.registry import defined_cards

# 3: the file is well formed but names a card the engine cannot play yet (not the writer's mistake)
EXIT_OK, EXIT_FAILED, EXIT_BAD_INPUT, EXIT_UNDEFINED_CARD = 0, 1, 2, 3


def _zones_text(snap: dict) -> list[str]:
    out = ["Zones at the end:"]
    for name, zones in snap["players"].items():
        out.append(f"  {name}:")
        for z in ("hand", "deck", "discard", "in_play", "set_aside", "revealed"):
            if zones[z] or z in ("hand", "deck", "discard", "in_play"):
                label = "deck (top first)" if z == "deck" else z
                out.append(f"    {label}: {', '.join(zones[z]) or '-'}")
    out.append(f"  trash: {', '.join(snap['trash']) or '-'}")
    supply = ", ".join(f"{n} {k}" for n, k in snap["supply"].items())
    out.append(f"  Supply: {supply}")
    out.append(f"  turn: {snap['current']}, phase {snap['phase']}, Actions {snap['actions']}, "
               f"Buys {snap['buys']}, money pool {snap['coins']}")
    if snap["game_over"]:
        out.append(f"  game over: scores {snap['scores']}, winners {', '.join(snap['winners'])}")
    return out


def refused_line(err: ScenarioError) -> str:
    """The line after the log saying what ``expect_error`` matched (the message the step was refused with)."""
    return f"[{err.step}] Refused, as the scenario expects: {err.message}"


def question_rows(decider) -> list[dict]:
    """Every question the replay asked, in order: the step, who, the prompt, its legal answers as the file must
    write them, whether it was decided automatically (one possible outcome, no answer used), and the outcome."""
    rows = []
    for a in decider.record:
        q = a.question
        rows.append({"step": a.step, "player": q.player, "prompt": q.prompt, "kind": q.kind,
                     "legal": [written(x) for x in dict.fromkeys(q.legal_answers())],
                     "min": q.min, "max": q.max, "automatic": a.auto,
                     "answer": a.answer, "outcome": a.outcome()})
    return rows


def questions_text(rows: list[dict], open_question=None) -> list[str]:
    """``rulings replay FILE --questions``: one line per question, then the open one if the replay stopped there."""
    out = [f"Questions asked ({len(rows)}):"]
    for i, r in enumerate(rows, 1):
        if r["automatic"]:
            how = (f"automatic (answer {r['answer']} names it)" if r["answer"] else
                   "automatic (one possible outcome, no answer used)")
        else:
            how = f"answer {r['answer']}"
        legal = ", ".join(r["legal"]) or "(none)"
        if r["kind"] == "cards" and r["min"] == 0:
            legal += "; or none"
        out.append(f"  {i}. step {r['step']}, {how}: {r['player']}: {r['prompt']} [legal: {legal}] -> {r['outcome']}")
    if open_question is not None:
        out.append(f"  open at the stop: {open_question.describe()}")
    return out


def replay(path: str, as_json: bool, questions: bool = False) -> int:
    """Run a scenario, print the narrated log (or JSON), return 0 only when every expectation holds.

    ``questions``: print the questions asked instead of the log (the JSON always has them)."""
    try:
        scen = sc_mod.load(path)
    except ScenarioError as exc:
        if as_json:
            print(json.dumps({"file": path, "ok": False, "error": str(exc)}, indent=2))
        else:
            print(f"error: {exc}", file=sys.stderr)
        return EXIT_UNDEFINED_CARD if isinstance(exc, sc_mod.UndefinedCard) else EXIT_BAD_INPUT
    try:
        res = sc_mod.replay(scen, zones=False)     # the outcome only; the per-step zones are for the web pages
    except (ScenarioError, EngineError) as exc:    # a setup value a mechanism refused while building the table
        msg = f"{path}: setup: {getattr(exc, 'message', exc)}"
        print(json.dumps({"file": path, "ok": False, "error": msg}, indent=2) if as_json else f"error: {msg}",
              file=sys.stdout if as_json else sys.stderr)
        return EXIT_BAD_INPUT
    snap = sc_mod.snapshot(res.game)
    if as_json:
        print(json.dumps({
            "file": path, "title": scen.title, "ok": res.ok,
            "rulings": scen.rulings, "cited": [render_citation(r) for r in scen.rulings],
            "log": [e.as_dict() for e in res.log.entries],
            "final": snap,
            "failures": [{"step": f.step, "what": f.what, "expected": f.expected, "actual": f.actual}
                         for f in res.failures],
            "error": str(res.error) if res.error else None,
            "questions": question_rows(res.game.decider),
            # what expect_error matched, so a judge sees the step was refused for the right reason
            "expected_error": ({"step": res.expected_error.step, "message": res.expected_error.message}
                               if res.expected_error is not None else None),
            "question": ({"player": res.question.player, "prompt": res.question.prompt, "kind": res.question.kind,
                          "options": res.question.option_labels(), "min": res.question.min, "max": res.question.max}
                         if res.question is not None else None),
        }, indent=2, ensure_ascii=False))
    elif questions:
        print(f"{scen.title}")
        for line in questions_text(question_rows(res.game.decider), res.question if res.error else None):
            print(line)
        if res.error:
            print(f"error: {res.error}", file=sys.stderr)
        for f in res.failures:
            print(f"FAILED {f.render()}")
    else:
        print(f"{scen.title}")
        print("Demonstrates: " + "; ".join(render_citation(r) for r in scen.rulings))
        for line in res.log.lines():
            print(line)
        if res.expected_error is not None:
            print(refused_line(res.expected_error))
        for line in _zones_text(snap):
            print(line)
        if res.error:
            print(f"error: {res.error}", file=sys.stderr)
        for f in res.failures:
            print(f"FAILED {f.render()}")
        if res.ok:
            print("OK: every expectation holds")
    if res.error:
        return EXIT_BAD_INPUT
    return EXIT_OK if res.ok else EXIT_FAILED


def _reference_entries() -> tuple[dict[str, list[str]], str]:
    """Card Reference entries per set: from the Card Reference parser when it exists, else the card facts."""
    from app.corpus.card_facts import facts_for, load_facts

    by_set: dict[str, list[str]] = defaultdict(list)
    try:
        from app.corpus.card_reference_parser import parse_card_reference  # type: ignore
        from app.corpus.model import ParsedCorpus
        from app.corpus.sources import load_document

        parsed = ParsedCorpus()
        parse_card_reference(load_document("rules"), parsed)
        for e in parsed.cards:
            f = facts_for(e.name)
            if f is not None and e.kind == "card":
                by_set[f.set].append(f.name)
        if by_set:
            return by_set, "Card Reference entries (complete-rules.txt) joined to dominion-setup sets"
    except ImportError:
        pass
    for f in load_facts().values():
        by_set[f.set].append(f.name)
    return by_set, "cards in dominion-setup (the Card Reference parser is not available yet)"


def _facts_name(entry: str) -> str:
    """The card facts' name of a cited Card Reference entry: "Philosopher’s Stone" (typographic apostrophe,
    as the Card Reference prints it) is the card facts' "Philosopher's Stone", so its citations count."""
    from app.corpus.card_facts import facts_for

    f = facts_for(entry)
    return f.name if f is not None else entry


def coverage_data() -> dict:
    by_set, source = _reference_entries()
    defined = set(defined_cards())
    cited: Counter = Counter()
    for path in sorted(config.scenarios_dir().glob("*.yaml")):
        try:
            scen = sc_mod.load(path)
        except ScenarioError:
            continue
        for name in {_facts_name(r["card"]) for r in scen.rulings if "card" in r}:
            cited[name] += 1
    sets = []
    for s, names in sorted(by_set.items()):
        names = sorted(set(names))
        sets.append({"set": s, "entries": len(names),
                     "defined": sum(1 for n in names if n in defined),
                     "cited_by_scenarios": sum(1 for n in names if cited[n]),
                     "scenarios_citing": sum(cited[n] for n in names)})
    return {"source": source, "sets": [x for x in sets if x["entries"]], "cards_cited": dict(cited)}


def coverage(as_json: bool) -> int:
    data = coverage_data()
    if as_json:
        print(json.dumps(data, indent=2))
        return EXIT_OK
    print(f"Coverage ({data['source']})")
    print(f"{'set':<28}{'entries':>8}{'defined':>9}{'cited':>7}{'scenario refs':>15}")
    for row in data["sets"]:
        if row["defined"] or row["cited_by_scenarios"]:
            print(f"{row['set']:<28}{row['entries']:>8}{row['defined']:>9}{row['cited_by_scenarios']:>7}"
                  f"{row['scenarios_citing']:>15}")
    rest = [r for r in data["sets"] if not (r["defined"] or r["cited_by_scenarios"])]
    print(f"({len(rest)} other sets with no definitions yet: {sum(r['entries'] for r in rest)} entries)")
    return EXIT_OK
