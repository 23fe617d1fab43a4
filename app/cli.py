"""The ``rulings`` command: build | stats | card | search | replay | coverage | serve.

Each subcommand is a thin shell over the module that does the work, so the
web app, the API and the command line answer from the same code.
"""
from __future__ import annotations

import argparse
import json
import sys
from typing import Sequence

from app import config


def _ensure_built(quiet: bool = False) -> None:
    """Build the store and index if they are missing or stale (the embedded defaults)."""
    from app.store.build import build, needs_build

    if needs_build():
        if not quiet:
            print(f"building the store in {config.index_dir()} ...", file=sys.stderr)
        result = build()
        if not quiet:
            print(f"built in {result.seconds:.1f} s", file=sys.stderr)


def _open_store():
    from app.store.db import Store

    _ensure_built(quiet=True)
    return Store()


def cmd_build(args: argparse.Namespace) -> int:
    from app.store.build import build

    result = build(force=args.force)
    if result.skipped:
        print(f"corpus unchanged ({result.fingerprint}); store is up to date: {result.db_path}")
    else:
        print(f"built {result.db_path} in {result.seconds:.2f} s (corpus {result.fingerprint})")
    if args.report:
        from app.store.db import Store

        store = Store(result.db_path)
        unresolved = store.rows("select * from refs where not resolved order by line")
        doc = config.DOCUMENTS["rules"]
        for ref in unresolved:
            print(f"{doc}:{ref['line']}: {ref['text']} — {ref['note'] or 'unresolved'}")
        stats = store.stats()
        total, ok = stats["references"], stats["references_resolved"]
        rate = ok / total if total else 0.0
        _symbol_report(store)
        print(f"references: {total}, resolved {ok} ({rate:.1%}), corrected {stats['references_corrected']}, "
              f"unresolved {len(unresolved)}")
    return 0


def _symbol_report(store) -> None:
    """The symbols the documents lost: restored (by source, from corpus/data/symbols.csv) and still lost."""
    if not store.has_table("symbol_gaps"):
        return
    gaps = store.rows("select * from symbol_gaps order by doc, line, gap")
    lost = [g for g in gaps if g["lost"]]
    for g in lost:
        print(f"symbol lost: {config.DOCUMENTS[g['doc']]} line {g['line']} — {g['context']}")
    sources: dict[str, int] = {}
    for g in gaps:
        if not g["lost"] and g["source"] != "not a symbol":
            sources[g["source"]] = sources.get(g["source"], 0) + 1
    restored = sum(sources.values())
    by = ", ".join(f"{k} {v}" for k, v in sorted(sources.items(), key=lambda kv: -kv[1]))
    print(f"symbols lost in the source documents: {restored + len(lost)}; restored {restored} ({by}); "
          f"shown as lost {len(lost)}; not a symbol {sum(1 for g in gaps if g['source'] == 'not a symbol')}")


def cmd_stats(args: argparse.Namespace) -> int:
    stats = _open_store().stats()
    if args.json:
        print(json.dumps(stats, indent=2))
    else:
        width = max(map(len, stats))
        for k, v in stats.items():
            print(f"{k:<{width}}  {v}")
    return 0


def cmd_card(args: argparse.Namespace) -> int:
    from app.store.render_text import card_as_text

    store = _open_store()
    card = store.find_card(args.name) or _recognised_card(store, args.name)
    if card is None:
        near = store.nearest_cards(args.name)
        msg = {"error": "unknown card", "name": args.name, "nearest": near}
        if args.json:
            print(json.dumps(msg, indent=2, ensure_ascii=False))
        else:
            hint = f" Did you mean: {', '.join(near)}?" if near else ""
            print(f"No card named {args.name!r}.{hint}", file=sys.stderr)
        return 1
    detail = store.card_detail(card["slug"])
    if args.json:
        print(json.dumps(detail, indent=2, ensure_ascii=False))
    else:
        print(card_as_text(detail))
    return 0


def _recognised_card(store, name: str):
    """A community abbreviation, plural or German name that means exactly one card ("KC", "Thronsaal").

    Misspellings are not guessed here: an unknown name answers with the nearest names instead.
    """
    from app.search.indexer import name_index_from_store

    found = {r.slug for r in name_index_from_store(store).recognize(name) if r.how != "fuzzy"}
    return store.row("select * from cards where slug=?", (found.pop(),)) if len(found) == 1 else None


def cmd_search(args: argparse.Namespace) -> int:
    from app.search.commands import search_command

    _ensure_built(quiet=True)
    return search_command(args.query, args.json, args.limit)


def cmd_replay(args: argparse.Namespace) -> int:
    from app.engine.scenario.commands import replay

    return replay(args.file, args.json, questions=args.questions)


def cmd_coverage(args: argparse.Namespace) -> int:
    from app.engine.scenario.commands import coverage

    return coverage(args.json)


def cmd_serve(args: argparse.Namespace) -> int:
    _ensure_built()
    if args.prod:
        from app.web.prod import run_gunicorn

        return run_gunicorn(args.host, args.port)
    from app import create_app
    from app.web.serving import SEARCH_WARM_URLS, warm_worker

    app = create_app()
    # the search index, its models and the search page's templates ready before the first request, as
    # in a production worker (issue #34); the scenario files a card page lists are read on first use
    # here (production's master reads them before forking its workers)
    warm_worker(app, urls=SEARCH_WARM_URLS)
    app.run(host=args.host, port=args.port, debug=False)
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="rulings", description="Dominion rules reference and ruling assistant")
    sub = p.add_subparsers(dest="command", required=True)

    b = sub.add_parser("build", help="parse the corpus into index/rules.db and the search index")
    b.add_argument("--force", action="store_true", help="rebuild even if the corpus has not changed")
    b.add_argument("--report", action="store_true", help="list every unresolved cross-reference")
    b.set_defaults(func=cmd_build)

    s = sub.add_parser("stats", help="counts of everything in the store")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_stats)

    c = sub.add_parser("card", help="a card's facts and every ruling on it")
    c.add_argument("name")
    c.add_argument("--json", action="store_true")
    c.set_defaults(func=cmd_card)

    q = sub.add_parser("search", help="search rules, rulings, FAQ and rulebook")
    q.add_argument("query")
    q.add_argument("--json", action="store_true")
    q.add_argument("--limit", type=int, default=10)
    q.set_defaults(func=cmd_search)

    r = sub.add_parser("replay", help="replay a scenario and check its expectations")
    r.add_argument("file")
    r.add_argument("--json", action="store_true")
    r.add_argument("--questions", action="store_true",
                   help="list every question asked, in order, with its legal answers and which were automatic")
    r.set_defaults(func=cmd_replay)

    v = sub.add_parser("coverage", help="executable definitions and scenarios per set")
    v.add_argument("--json", action="store_true")
    v.set_defaults(func=cmd_coverage)

    w = sub.add_parser("serve", help="run the web app (builds the store first if missing)")
    w.add_argument("--prod", action="store_true",
                   help="production: nginx in front (deploy/nginx.conf) of gunicorn, one worker per core")
    w.add_argument("--host", default="127.0.0.1")
    w.add_argument("--port", type=int, default=5000)
    w.set_defaults(func=cmd_serve)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    from app.corpus.sources import CorpusError

    args = build_parser().parse_args(argv)
    try:
        return args.func(args)
    except CorpusError as exc:
        print(f"rulings: corpus error: {exc}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
