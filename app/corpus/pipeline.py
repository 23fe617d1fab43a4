"""documents -> parsed model, in one pass. The only caller of the parsers."""
from __future__ import annotations

from pathlib import Path

from app import config
from app.corpus.card_facts import join_card_facts
from app.corpus.card_reference_parser import parse_card_reference
from app.corpus.faq_parser import parse_faq
from app.corpus.disagreements import collect_disagreements
from app.corpus.faq_superseded import parse_faq_superseded
from app.corpus.german_names import attach_german_names
from app.corpus.german_parser import parse_german
from app.corpus.model import ParsedCorpus
from app.corpus.references import resolve_references
from app.corpus.restatements import link_restatements
from app.corpus.rulebook_parser import parse_adventures
from app.corpus.rule_questions import parse_rule_questions
from app.corpus.rules_parser import parse_rules
from app.corpus.sources import load_document
from app.corpus.symbols import TABLE, GapLedger, mark_gaps, read_table, restore_symbols


def parse_corpus(corpus: Path | None = None, symbol_table: dict | None = None) -> ParsedCorpus:
    """Parse every document; raise CorpusError (file, line) when one no longer parses.

    ``symbol_table`` replaces ``corpus/data/symbols.csv`` (``tools/make_symbol_table.py`` passes ``{}``
    to see every gap as lost).
    """
    parsed = ParsedCorpus()
    ledger = GapLedger()

    def load(role: str):
        doc = load_document(role, corpus)
        mark_gaps(doc, ledger)        # lost symbols become markers the parsers carry through
        return doc

    rules = load("rules")
    parse_rules(rules, parsed)
    parse_card_reference(rules, parsed)
    parse_faq(load("faq"), parsed)
    parse_adventures(load("adventures"), parsed)
    parse_german(load("german"), parsed)
    join_card_facts(parsed)
    attach_german_names(parsed)
    base = corpus or config.corpus_dir()
    parsed.symbols = restore_symbols(
        parsed, ledger, read_table(base) if symbol_table is None else symbol_table, base / TABLE)
    resolve_references(parsed)
    parse_rule_questions(corpus or config.corpus_dir(), parsed)
    parse_faq_superseded(corpus or config.corpus_dir(), parsed)
    link_restatements(parsed)
    collect_disagreements(parsed, corpus or config.corpus_dir())
    return parsed
