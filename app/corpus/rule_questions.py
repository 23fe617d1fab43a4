"""``corpus/data/rule-questions/*.csv`` -> ``RuleQuestion``: the questions each rule or ruling answers.

Players ask "can I buy nothing?" or "do I keep the money if it gets trashed after?";
the Complete Rules answer in their own words ("Buy phase", "effects are immediate").
BM25 cannot bridge the two, and the phrase table (``app/search/phrases.py``) only
rewrites words that mean the same everywhere. These tables attach, to one paragraph
or section, questions a player would type that it answers; search indexes them with
that paragraph (``app/search/documents.py``). They are written from the documents,
never from the relevance sets in ``bench/``, or those figures would measure nothing.

Format: UTF-8 CSV, header ``key,question``, one row per question. ``key`` is a paragraph
key (``ii-your-turn-b-buy-phase#p2``) or a section slug of the Complete Rules, the FAQ or
the Adventures rulebook, a Card Reference ruling (``moat#r2``) or a FAQ card clarification
(``faq-moat#c1``). A bad row stops the build with ``file:line: what is wrong``.
"""
from __future__ import annotations

from collections import Counter
from pathlib import Path

from app.corpus.model import ParsedCorpus, RuleQuestion
from app.corpus.sources import CorpusError, read_csv_table, text_cell

FOLDER = Path("data") / "rule-questions"
HEADER = ["key", "question"]
# Bounds, checked before a file is read or a row is kept.
MAX_FILES = 64
MAX_FILE_BYTES = 1_000_000
MAX_ROWS = 40_000
MIN_CHARS, MAX_CHARS = 8, 160
MAX_PER_KEY = 10                # 8 in English and 2 in German over all tables
# Tables whose name starts so are written in German. Their questions are not searched as words: they teach the word
# vectors German players' words (app/search/embedding.py, ``_learn_german``; docs/question-tables.md).
GERMAN_PREFIX = "german-"
# Documents whose sections and paragraphs may carry questions (not the German dividers: they are card text).
DOCS = ("rules", "faq", "adventures")


def is_german_table(file: str) -> bool:
    """Whether a table (a ``RuleQuestion.file``) is one of the German ones."""
    return Path(file).name.startswith(GERMAN_PREFIX)


def parse_rule_questions(corpus: Path, parsed: ParsedCorpus) -> None:
    """Read every table under ``corpus/data/rule-questions``; targets must exist in ``parsed``."""
    folder = corpus / FOLDER
    if not folder.is_dir():
        return
    files = sorted(p for p in folder.iterdir() if p.suffix == ".csv")
    if len(files) > MAX_FILES:
        raise CorpusError(folder, None, f"at most {MAX_FILES} question tables, found {len(files)}")
    targets = _targets(parsed)
    seen: dict[tuple[str, str], str] = {}
    per_key: Counter[str] = Counter()
    out: list[RuleQuestion] = []
    for path in files:
        for q in _read(path, corpus):
            if q.target not in targets:
                raise CorpusError(path, q.line, f"key {q.target!r} is no ruling, FAQ clarification, or paragraph or section "
                                                "of the rules, FAQ or Adventures rulebook")
            # one paragraph asked the same twice counts it twice; two paragraphs may answer the same question
            folded = (q.target, q.question.casefold())
            if folded in seen:
                raise CorpusError(path, q.line, f"question {q.question!r} is already at {seen[folded]} for the same key")
            seen[folded] = f"{q.file}:{q.line}"
            per_key[q.target] += 1
            if per_key[q.target] > MAX_PER_KEY:
                raise CorpusError(path, q.line, f"key {q.target!r} has more than {MAX_PER_KEY} questions")
            out.append(q)
            if len(out) > MAX_ROWS:
                raise CorpusError(path, q.line, f"more than {MAX_ROWS} questions in all")
    parsed.rule_questions = out


def _targets(parsed: ParsedCorpus) -> set[str]:
    return parsed.passage_keys(*DOCS) | {r.key for r in parsed.rulings} | {f.key for f in parsed.faq_clarifications}


def _read(path: Path, corpus: Path) -> list[RuleQuestion]:
    name = path.relative_to(corpus).as_posix()
    out = []
    for line, row in read_csv_table(path, HEADER, MAX_FILE_BYTES):
        if len(row) != 2:
            raise CorpusError(path, line, f"expected 2 columns (key,question), found {len(row)}")
        question = text_cell(path, line, row[1], "question", MIN_CHARS, MAX_CHARS)
        out.append(RuleQuestion(target=row[0].strip(), question=question, file=name, line=line))
    return out
