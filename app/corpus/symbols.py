"""The game's symbols ($, VP, Potion, Debt) the documents lost in extraction: find, restore, or show as lost.

The PDFs printed coins, VP, Potion and Debt as icons; the text extraction dropped
them and left a gap behind ("the winner has the most  (Victory points)", "you get
+ both times"). A gap a player reads as text is a wrong answer, so the parsed
model never keeps one silently:

1. ``mark_gaps`` runs on each document's lines before the parsers and replaces
   every gap it recognises (by its signature: a doubled space, a bare ``+``
   before punctuation or a lower-case word, a ``+`` before an amount with no
   unit) with one private-use character naming that gap. The parsers carry it
   through like any other character, so the gap keeps its place however the
   parser joins or collapses text.
2. ``restore_symbols`` replaces each marker by what ``corpus/data/symbols.csv``
   says the line printed (every row says why: the card's own text, the sentence
   itself, the section it is in, ...), or by ``LOST`` when nothing determines it.
   The table is written by ``tools/make_symbol_table.py`` from the rules in
   ``app/corpus/symbol_rules.py``; a row that no longer matches its line is refused.

``silent_gaps`` is the check: the signatures a lost symbol leaves, run over any
text the model, the store or the API holds (tests/test_symbols.py).
"""
from __future__ import annotations

import dataclasses
import html
import re
from dataclasses import dataclass, field
from pathlib import Path

from app.corpus.sources import CorpusError, SourceDoc, read_csv_table, text_cell

# What a player sees where the source lost a symbol and nothing determines it.
LOST = "[symbol lost in the source]"

# One private-use character per gap (U+E000 + its number): never in the documents, kept by every
# parser (it is not a space, a word character or markup), dropped by ``slugify``.
_MARK_BASE = 0xE000
_MARK_LIMIT = 0x1800
_MARK = re.compile("[\ue000-\uf7ff]")
# The Complete Rules' legend icons ("🟡 = Coins", "🔴 = Debt", "🏰 = Victory points"), and two that the legend
# leaves out but the sentence settles ("the 🟡 and 🔵 you have available": coins and Potions; "a cost with 🐣 or 🐥
# in it": the other two kinds of cost). 🏰 is also an expansion's icon after a name in a header ("Fortress 🏰 p. 37").
LEGEND_ICONS = "\U0001F7E1\U0001F534\U0001F535\U0001F423\U0001F425\U0001F3F0"
_LEGEND_ICON = re.compile(f"[{LEGEND_ICONS[:-1]}]|{LEGEND_ICONS[-1]}(?![ \\t]*(?:p\\. ?\\d|see\\b|\\*\\*))")
_MARK_DIGITS = re.compile("([\ue000-\uf7ff])((?:\\*\\*)?\\d*(?:\\*\\*)?)([\u2460-\u2473\u2776-\u277f"
                          + LEGEND_ICONS + "]?)")

# The Complete Rules print a coin with its amount as a circled digit ("costing ② or ③", "+⑦", "Your -① token"),
# and also number their rulings ("- ③ text", "① text") and point to numbered rulings with the same glyphs
# ("See TRIGGERED ABILITY ②", "RESOLVING MULTIPLE ABILITIES ③ § III", "Sheepdog ⑥)", "ABILITY ① ⑧").
CIRCLED = "\u2460-\u2473\u2776-\u277f"            # ① .. ⑳ and ❶ .. ❿
_CIRCLED_GLYPH = re.compile(f"[{CIRCLED}]")
# What a cross-reference's number follows: a capitalised term or card name, "version:", another number.
_XREF_BEFORE = re.compile(rf"(?:\b[A-Z][A-Z'’\-]*[A-Z]|\b(?!With\b)[A-Z][a-z]+|version:|[{CIRCLED}])$")

TABLE = "data/symbols.csv"
TABLE_HEADER = ["doc", "line", "gap", "context", "restored", "source", "by", "why"]
TABLE_MAX_BYTES = 400_000
# Where a restoration comes from: the card's own text (dominion-setup), the sentence or section it is in,
# the same rule's other wording (the FAQ, the Adventures rulebook), the Card Reference entry of the card it names.
# "undetermined": a person read the gap and found that nothing settles it (a rule's answer is overruled; shown as lost).
SOURCES = ("card text", "sentence", "section", "faq", "rulebook", "card reference", "not a symbol", "undetermined")
# Who decided a row: ``rule`` rows are what app/corpus/symbol_rules.py answers (rewritten by the tool),
# ``person`` rows were read out of the documents by a person and are kept while their gap is where it was.
DECIDERS = ("rule", "person")


@dataclass
class Gap:
    """One place a document lost a symbol: the ``n``-th gap of line ``line`` of document ``doc``."""

    doc: str
    line: int
    n: int                    # 1-based, in reading order within the line
    before: str               # the line's text up to the gap (for the table's context and the rules)
    after: str                # the rest of the line
    owner: str = ""           # the key of the model object the gap ended up in (set by restore)
    card: str | None = None   # the Card Reference slug that object belongs to, when it belongs to one

    @property
    def id(self) -> str:
        return f"{self.doc}:{self.line}:{self.n}"

    def context(self, width: int = 30) -> str:
        """The words around the gap, as the table shows them (``¤`` is the gap)."""
        def clean(s: str) -> str:
            return " ".join(_MARK.sub("¤", s).split())
        return f"{clean(self.before)[-width:]}¤{clean(self.after)[:width]}".strip()


@dataclass
class GapLedger:
    """Every gap marked in one parse, by marker character."""

    gaps: list[Gap] = field(default_factory=list)

    def add(self, gap: Gap) -> str:
        if len(self.gaps) >= _MARK_LIMIT:
            raise CorpusError(gap.doc, gap.line, f"more than {_MARK_LIMIT} symbol gaps: is this the right document?")
        self.gaps.append(gap)
        return chr(_MARK_BASE + len(self.gaps) - 1)

    def gap(self, mark: str) -> Gap:
        return self.gaps[ord(mark) - _MARK_BASE]


# -- 1. marking -------------------------------------------------------------------------------

# A Card Reference or index header: the gap is a lost expansion icon before the page list, not a game symbol.
_HEADER_TAIL = re.compile(r"(?:p\. ?\d|\*?\(promo\)|see\b|\(see\b)")
_DOUBLE = re.compile(r"(?<=\S) {2,}(?=\S)")
# The Adventures rulebook sets amounts in LaTeX ("  $\text{2}$  "): spaces around it are not gaps.
_LATEX = re.compile(r"\s*\$\\text\{[+-]?\d+\}\$\s*")
# "+" with nothing after it: "+, and", "+ both times", "(three): +;", "the + Storyteller gives you".
_PLUS = re.compile(r"\+(?=[,.;:)]|\s|$)")
# "+3." or "+1 and nothing more": an amount after "+" with no unit is the coin icon's number.
_PLUS_AMOUNT = re.compile(r"(?<![\w])\+(?=(?:\*\*)?\d+(?:\*\*|\*)?(?:[,.;:]|\)(?!\s*(?:Cards?|Actions?|Buys?)\b)|\s+(?:and|or|if|for|at|this|that|instead|per|each|when|from|to|in|on|as|but|no|with|nothing|more|less|from|token|twice|both|even|before|now|again)\b|\s+\(instead\b|$))")
# A coin's amount printed with no coin after a word that only takes coins: "a card costing 0", "This costs 5
# normally", "Silver and Gold produce 1 (instead of 2 or 3)" (a number of cards, Debt, VP or times says so).
_NOT_COINS = r"(?!\*{0,2}\s*(?:coins?|cards?|more cards|Debt|VP|Potions?|times|%|\$))"
_BARE_AMOUNT = re.compile(r"\b(?:costing|costs|cost(?:\*\*)? of|produces?)(?:\*\*)?(?: (?:\*\*)?(?:up to|exactly)(?:\*\*)?)? (?:\*\*)?(?=\d+\b" + _NOT_COINS + ")"
                          r"|(?<=\(instead of )(?=\d+ or \d+\))|(?<=\(instead of \d or )(?=\d+\))")
# A symbol lost right before punctuation leaves a space there: "give you , allow", "does not give you ."
# (the index's " : " between a term and its pages is layout); an empty pair of parentheses: "Coin () (resource)";
# a space before a closing quote or parenthesis: "“up to ” means", "(getting +1 )"; empty quotes: "The symbol “”";
# a line that starts by closing a quote the line before opened: "instead of “per" / "”; this is corrected".
_BEFORE_PUNCT = re.compile(r"(?<=[\w*])(?<!\.gif)(?<!\.png) (?=[,.;](?![\w\d])|[”)])|(?<=\()(?=\s*\))|(?<=“)(?=”)|^(?=”)")
# A symbol lost inside bold: "+****", "**worth **)", "***x* **—" (the term definitions of chapter II).
_IN_BOLD = re.compile(r"(?<=\*\*)(?=\*\*)|(?<=\S) (?=\*\*(?:[)—,.;:]|\s|$))")
# Documents whose doubled spaces are layout, not lost icons (the German dividers' line breaks).
# Gaps no spacing shows, found by the phrase they leave: "Pay any amount of (by deducting it from your money
# pool), paying off (removing) 1 for each 1." (the Buy phase's steps: $ before the parenthesis, 1 Debt for each $1).
_PHRASE_WORD = re.compile(r"\bamount of (?=\()|\bhave no (?=\(but\b)|\b[Tt]ake a (?=tokens? per\b)")
# "Take a  token per 1 in its cost" (chapter V's summary of buying, Debt twice), "Gaining a -cost card" (IV, Debt)
_PHRASE_NUMBERS = re.compile(r"(?<=\s)(?=\d+ for each \d+\.)|(?<=\d for each )(?=\d+\.)"
                             r"|(?<=\btoken per )(?=\d+ in (?:its|their)\b)|(?<=\ba )(?=-(?:\*\*)?cost\b)")
_LAYOUT_SPACES = {"german"}
# Doubled layout spaces in those documents, except after a lost ligature: "Handelsschi\ufffd  bleibt"
# is "Handelsschiff" at a word's end, which the German parser reads from the two spaces
# (collapsed, it would repair to "Handelsschiffbleibt").
_LAYOUT_DOUBLE = re.compile("(?<=[^\\s\ufffd]) {2,}(?=\\S)")
_ROLES = ("rules", "adventures", "faq", "german")


def mark_gaps(doc: SourceDoc, ledger: GapLedger) -> None:
    """Replace each recognised gap in ``doc`` (in place) by its marker; doubled layout spaces become one."""
    if doc.role not in _ROLES:
        return
    for i, line in enumerate(doc.lines):
        doc.lines[i] = _mark_line(doc.role, i + 1, line, ledger)


def is_bare_plus(text: str, at: int, german: bool = False) -> bool:
    """Whether the "+" at ``text[at]`` lost the symbol it stood before.

    Not when it joins two names ("Throne Room + Feast", "Elder + **Scrap**", "(+ Eintauschkarten)"),
    nor before an amount ("+ 3 Geld"); a line ending in "+" is the German second copy's line break.
    """
    after = text[at + 1:]
    if re.match(r"\s*\d", after) or re.match(r"\+", after):
        return False
    if not after.strip():
        return False
    if after[:1] not in ",.;:)" and not after[:1].isspace():
        return False
    words = text[:at].rstrip().split()
    prev = words[-1] if words else ""
    bare_prev = prev.lstrip("(“„\"'*")
    nxt = after.strip()[:1]
    if prev.endswith("(") and nxt.isupper():
        return False
    if re.match(r"\s*tokens?\b", after):
        return False                 # "a + token": the Adventures +1 Card/Action/Buy/$ tokens, by their sign
    if bare_prev.rstrip("*").lower() == "throne-room":
        return False                 # "a **throne-room** + Church": the rules' word for Throne Room-like cards
    if not prev.endswith((",", ";", ":", "(")) and (prev.endswith("*") or bare_prev[:1].isupper() or bare_prev[:1].isdigit()):
        return False
    if german and not (nxt.islower() or nxt in ",.;:)"):
        return False
    return True


def circled_amounts(line: str) -> list[int]:
    """Where ``line`` prints a circled digit that is not a ruling number or a cross-reference (a coin's amount).

    A ruling's number starts its line ("- ③ text", "① text"); a cross-reference's number follows the term or
    card it points into ("TRIGGERED ABILITY ②", "TIMING ③ ④", "Sheepdog ⑥", "(pre-2022 version: ④)"), except
    the term the Card Reference prints with the coin itself ("VARIABLE ① PRODUCTION").
    """
    out = []
    for m in _CIRCLED_GLYPH.finditer(line):
        before = line[:m.start()]
        if re.fullmatch(r"\s*(?:-\s*)?", before):
            continue
        if _XREF_BEFORE.search(re.sub(r"[\s*]+$", "", before)) and not re.match(r"[\s*]*PRODUCTION", line[m.end():]):
            continue
        out.append(m.start())
    return out


def _mark_line(role: str, line_no: int, line: str, ledger: GapLedger) -> str:
    spans: list[tuple[int, int, str]] = []     # (start, end, kind)
    if role == "rules":
        spans += [(at, at, "circled") for at in circled_amounts(line)]
        spans += [(m.start(), m.start(), "circled") for m in _LEGEND_ICON.finditer(line)]

    if role in ("rules", "adventures", "faq"):   # the rulebook, too, prints a coin's amount as a bare number
        spans += [(m.end(), m.end(), "punct") for m in _BARE_AMOUNT.finditer(line)]
    if role not in _LAYOUT_SPACES:
        latex = [m.span() for m in _LATEX.finditer(line)]
        indent = len(line) - len(line.lstrip(" "))
        for m in _DOUBLE.finditer(line):
            if m.start() < indent or any(a <= m.start() < b for a, b in latex):
                continue
            if _HEADER_TAIL.match(line, m.end()):
                continue
            spans.append((m.start(), m.end(), "space"))
        for m in _IN_BOLD.finditer(line):
            if not any(a <= m.start() < b for a, b, _ in spans):
                spans.append((m.end(), m.end(), "punct"))
        for m in _BEFORE_PUNCT.finditer(line):
            if not any(a <= m.start() < b for a, b, _ in spans):
                spans.append((m.end(), m.end(), "punct"))
    for m in _PHRASE_WORD.finditer(line):
        spans.append((m.end(), m.end(), "word"))
    for m in _PHRASE_NUMBERS.finditer(line):
        spans.append((m.end(), m.end(), "punct"))
    for m in _PLUS.finditer(line):
        if is_bare_plus(line, m.start(), german=role == "german"):
            spans.append((m.end(), m.end(), "plus"))
    for m in _PLUS_AMOUNT.finditer(line):
        spans.append((m.end(), m.end(), "amount"))
        # "+1  per card": the coin icon kept its number; the doubled space after it is the same gap
        number_end = re.match(r"(?:\*\*)?\d+(?:\*\*)?", line[m.end():]).end() + m.end()
        spans = [(s[0], s[1], "collapse") if s[2] == "space" and s[0] == number_end else s for s in spans]
    if not spans:
        return _LAYOUT_DOUBLE.sub(" ", line) if role in _LAYOUT_SPACES else line
    spans.sort()
    out, pos = [], 0
    n = 0
    for start, end, kind in spans:
        if start < pos:
            continue
        if kind == "collapse":
            out.append(line[pos:start] + " ")
            pos = end
            continue
        n += 1
        gap = Gap(role, line_no, n, line[:start], line[end:])
        mark = ledger.add(gap)
        out.append(line[pos:start])
        if kind == "space":
            at_end = end == len(line) or line[end] in ",.;:)”"      # "equivalent to   ." -> "to ¤."
            out.append(f" {mark}" if at_end else f" {mark} ")
        elif kind == "word":
            out.append(f"{mark} ")
        else:
            out.append(mark)
        pos = end
    out.append(line[pos:])
    text = "".join(out)
    return _LAYOUT_DOUBLE.sub(" ", text) if role in _LAYOUT_SPACES else text


# -- 2. restoring -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Restoration:
    doc: str
    line: int
    gap: int
    context: str
    restored: str
    source: str
    by: str                   # "rule" (written by the tool) or "person" (read out of the documents, kept)
    why: str
    row: int                  # line of the table

    @property
    def id(self) -> str:
        return f"{self.doc}:{self.line}:{self.gap}"


def read_table(corpus: Path) -> dict[str, Restoration]:
    """``corpus/data/symbols.csv``: gap id -> what the line printed there, and why we know."""
    path = corpus / TABLE
    if not path.exists():
        return {}
    out: dict[str, Restoration] = {}
    for row_line, cells in read_csv_table(path, TABLE_HEADER, TABLE_MAX_BYTES):
        if len(cells) != len(TABLE_HEADER):
            raise CorpusError(path, row_line, f"expected {len(TABLE_HEADER)} cells, found {len(cells)}")
        doc, line, gap, context, restored, source, by, why = cells
        if by not in DECIDERS:
            raise CorpusError(path, row_line, f"by: one of {', '.join(DECIDERS)}, found {by!r}")
        if doc not in _ROLES:
            raise CorpusError(path, row_line, f"doc: one of {', '.join(_ROLES)}, found {doc!r}")
        if not (line.isdigit() and gap.isdigit()):
            raise CorpusError(path, row_line, "line and gap: whole numbers")
        if source not in SOURCES:
            raise CorpusError(path, row_line, f"source: one of {', '.join(SOURCES)}, found {source!r}")
        r = Restoration(doc, int(line), int(gap), text_cell(path, row_line, context, "context", 1, 80),
                        restored.strip(), source, by, text_cell(path, row_line, why, "why", 3, 300), row_line)
        if r.id in out:
            raise CorpusError(path, row_line, f"gap {r.id} is already restored at line {out[r.id].row}")
        out[r.id] = r
    return out


@dataclass
class SymbolReport:
    """What ``restore_symbols`` did, for ``rulings build --report`` and the tests."""

    restored: list[tuple[Gap, Restoration]] = field(default_factory=list)
    lost: list[Gap] = field(default_factory=list)

    def rows(self) -> list[dict]:
        """One row per gap, for the store's ``symbol_gaps`` table (what ``rulings build --report`` lists)."""
        out = [{"key": g.id, "doc": g.doc, "line": g.line, "gap": g.n, "context": g.context(), "owner": g.owner,
                "card": g.card, "restored": r.restored, "source": r.source, "why": r.why, "lost": 0}
               for g, r in self.restored]
        out += [{"key": g.id, "doc": g.doc, "line": g.line, "gap": g.n, "context": g.context(), "owner": g.owner,
                 "card": g.card, "restored": LOST, "source": "", "why": "", "lost": 1} for g in self.lost]
        return out

    def by_source(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for _, r in self.restored:
            if r.source != "not a symbol":
                out[r.source] = out.get(r.source, 0) + 1
        return dict(sorted(out.items(), key=lambda kv: -kv[1]))


def restore_symbols(parsed, ledger: GapLedger, table: dict[str, Restoration], table_path: Path) -> SymbolReport:
    """Replace every marker in the parsed model by its restoration, or by ``LOST``."""
    report = SymbolReport()
    seen: set[str] = set()
    used: set[str] = set()

    def fix(text: str, owner: str, card: str | None) -> str:
        def one(m: re.Match[str]) -> str:
            gap = ledger.gap(m.group(1))
            gap.owner, gap.card = gap.owner or owner, gap.card or card
            r = table.get(gap.id)
            if gap.id not in seen:
                seen.add(gap.id)
                if r is not None:
                    used.add(gap.id)
                    if r.context != gap.context():
                        raise CorpusError(table_path, r.row, f"gap {r.id} is at {gap.context()!r} now, "
                                                             f"not {r.context!r}")
                if r is not None and r.source != "undetermined":
                    report.restored.append((gap, r))
                else:
                    report.lost.append(gap)
            if r is not None and r.source == "undetermined":
                r = None
            if m.group(3):
                # a circled digit: the row gives the whole amount as printed ("$2", "$0", "6 Debt"); a number
                # ("not a symbol") stays the glyph it is
                if r is None:
                    return m.group(2) + LOST
                return m.group(2) + (r.restored or m.group(3))
            digits = m.group(2)
            if r is not None and r.by == "person" and re.search(r"\d", r.restored) and re.search(r"\d", digits):
                # the card's own amount replaces a digit the extraction misplaced ("+Buy and +1" on Orb: +$3)
                return f"**{r.restored}**" if digits.startswith("**") else r.restored
            if r is not None and not r.restored:
                return _NOTHING + digits                   # not a symbol: no space is left where it was
            if not any(c.isdigit() for c in digits):
                return (LOST if r is None else r.restored) + digits
            if r is None:
                return LOST + digits
            if digits and r.restored in ("VP", "Debt"):
                return f"{digits} {r.restored}"        # "+¤1 per card" -> "+1 VP per card"
            if digits.startswith("**"):
                return f"**{r.restored}{digits.strip('*')}**"    # "+¤**2**" -> "+**$2**"
            return r.restored + digits
        return _MARK_DIGITS.sub(one, text)

    for obj, owner, card in _objects(parsed):
        for f in dataclasses.fields(obj):
            value = getattr(obj, f.name)
            if isinstance(value, str) and _MARK.search(value):
                setattr(obj, f.name, _tidy(fix(value, owner, card)))
            elif isinstance(value, list) and any(isinstance(v, str) and _MARK.search(v) for v in value):
                setattr(obj, f.name, [_tidy(fix(v, owner, card)) if isinstance(v, str) else v for v in value])
    stale = sorted(set(table) - used, key=lambda k: table[k].row)
    if stale:
        r = table[stale[0]]
        raise CorpusError(table_path, r.row, f"gap {r.id} ({r.context!r}) is no longer in the document "
                                             f"({len(stale)} such rows): run tools/make_symbol_table.py")
    return report


_NOTHING = "\x00"


def _tidy(text: str) -> str:
    """An empty restoration ('not a symbol') must not leave a doubled space or a space before punctuation."""
    text = re.sub(" ?" + _NOTHING, "", text)
    text = re.sub(r"(\+\$\d+) (?=[.,;](?:\s|$))", r"\1", text)      # "+ ." restored: "+$1."
    return re.sub(r"(?<=\S) {2,}(?=\S)", " ", text)


def _objects(parsed):
    """(object, its key, its card slug) for every object of the parsed model that holds text."""
    for attr in ("sections", "paragraphs", "index_terms", "references", "previous_versions"):
        for o in getattr(parsed, attr):
            yield o, o.key, getattr(o, "card", None) if attr == "previous_versions" else None
    for o in parsed.cards:
        yield o, o.key, o.slug
    for attr in ("rulings", "faq_clarifications", "rulebook_cards", "german_passages"):
        for o in getattr(parsed, attr):
            yield o, o.key, o.card


# -- 3. checking and reading ------------------------------------------------------------------

# Where the documents print the plus sign itself (a cost such as "3+", "+ Adventures tokens"): recorded in
# the table as "not a symbol", and not a finding of the check.
PRINTED_PLUS = re.compile(r"\+ ?(?:after the (?:\*\*)?cost|by the cost|in the cost|, such as 3\+|\. For instance|"
                          r"Adventures tokens)")
# German typesetting puts a space before punctuation after amounts and names ("+2 Geld ."): not a gap there.
_GERMAN_LAYOUT = {"space before punctuation"}

# The signatures a lost symbol leaves in text (the list, as found in these documents).
SIGNATURES: dict[str, re.Pattern[str]] = {
    "doubled space": re.compile(r"(?<=[^\s|])[ \u00a0]{2,}(?=[^\s|])"),
    "bare +": _PLUS,
    "+ amount without unit": re.compile(r"(?<![\w$(])\+\d+(?=[,.;:]|\)(?!\s*(?:Cards?|Actions?|Buys?)\b)|\s+(?:and|or|if|this|instead|per|each|"
                                        r"nothing|more|less|token|twice|both|even|before|now|again)\b|\s+\(instead\b)"),
    "amount without its coin": re.compile(r"\b(?:costing|costs|cost of|produces?)(?: up to| exactly)? \d+\b" + _NOT_COINS),
    "space before punctuation": re.compile(r"(?<=[\w*]) (?=[,.;](?![\w\d])|[”)])|\(\s*\)|“”"),
    "lost in a phrase": re.compile(
        r"\bamount of (?=\()|\bhave no (?=\(but\b)|\b\d+ for each \d+\.|"
        r"\b(?:costing|costs? up to|worth|the most|give you|gives you|produces?) "
        r"(?=(?:or|and|if|in its|in their|when|per)\b)|\b(?:having|has|have) (?=(?:or|in its|in their)\b)|\bup to (?=(?:from|more|when|or)\b)"
        r"|\b[Tt]ake a (?=tokens? per\b)|\btokens? per (?=\d+ in (?:its|their)\b)|\ba (?=-cost\b)"),
    "unrestored marker": _MARK,
    # a legend icon still printed as the document's picture (🟡 for coins, 🔴 Debt, 🔵 and 🐣/🐥); 🏰 is left
    # out here: it is also the expansion icon after a name in headers
    "legend icon": re.compile(f"[{LEGEND_ICONS[:-1]}]"),
    # a coin still printed as a circled digit ("costing ②", "+⑦", "pay ①", "Your -① token", "a ⑤-cost card");
    # a ruling's number starts its text and a cross-reference's follows a term ("TRIGGERED ABILITY ②"): not these
    "circled digit for coins": re.compile(
        rf"(?:\b(?:costing|costs?|cost of|pay|deduct|get|gets the cost|gives? you|at least|up to|exactly|below|"
        rf"more than|any|having|have|with|per|produce|is|is always|for|fall to|[Yy]our [-–—+]?) ?"
        rf"|(?<=[\s(])[-–—+]|(?<=[{CIRCLED}]) or )[{CIRCLED}]"
        rf"|[{CIRCLED}](?:-cost\b| (?:Cost )?tokens?\b| or (?:more|less)\b| more\b| (?:left )?in your money pool\b| PRODUCTION\b)"),
}


def silent_gaps(text: str | None, german: bool = False) -> list[tuple[str, str]]:
    """(signature, context) for each place ``text`` reads as if a symbol were missing."""
    if not text:
        return []
    text = re.sub(r"\*\*|(?<!\w)\*(?=\w)|(?<=\w)\*(?!\w)", "", text)     # emphasis: "+**2**." reads "+2."
    out = []
    for name, pat in SIGNATURES.items():
        for m in pat.finditer(text):
            if name == "bare +" and (not is_bare_plus(text, m.start(), german) or PRINTED_PLUS.match(text, m.start())):
                continue
            if german and name in _GERMAN_LAYOUT:
                continue
            out.append((name, text[max(0, m.start() - 30):m.end() + 30]))
    return out


# Symbols as restored text writes them (the dominion-setup package's own notation), and their words.
_COIN = re.compile(r"(?<![\w$])([+-]?)\$(\d+)(?![\d])|(?<![\w$])\$(?![\d\w])")
_VP = re.compile(r"(?<![\w])([+-]?\d+)? ?VP\b")


def symbol_words(text: str | None) -> str:
    """The symbols of ``text`` in words ("+$2" -> "+2 coins", "2 VP" -> "2 victory points"), nothing else.

    Search reads these beside the text so "2 coins" finds "+$2"; pages give them to screen readers.
    """
    if not text:
        return ""
    words = []
    for m in _COIN.finditer(text):
        words.append(coin_words(m.group(0)))
    for m in _VP.finditer(text):
        words.append(vp_words(m.group(1)))
    return " ".join(words)


def vp_words(amount: str | None) -> str:
    """"2" -> "2 victory points", "+1" -> "+1 victory point", None -> "victory points"."""
    if not amount:
        return "victory points"
    return f"{amount} victory point{'' if amount.lstrip('+-') == '1' else 's'}"


def coin_words(symbol: str) -> str:
    """"+$2" -> "+2 coins", "$1" -> "1 coin", "$" -> "coins"."""
    m = re.fullmatch(r"([+-]?)\$(\d*)", symbol)
    if not m:
        return symbol
    sign, amount = m.groups()
    if not amount:
        return "coins"
    return f"{sign}{amount} coin{'' if amount == '1' else 's'}"


_HTML_SYMBOL = re.compile(r"(?<![\w$])([+-]?)\$(\d*)(?![\w])|(?<![\w])([+-]?\d+) VP\b|(?<![\w])VP\b|"
                          + re.escape(LOST))


def symbols_html(fragment: str) -> str:
    """Symbols in an HTML text fragment (no tags), drawn as the game draws them, each with its words.

    "+$2" -> a coin reading "+2 coins" to a screen reader; ``LOST`` says why it is there.
    """
    def one(m: re.Match[str]) -> str:
        token = m.group(0)
        if token == LOST:
            return ('<span class="sym lost" title="The source document lost this symbol when it was turned '
                    f'into text, and nothing else in the documents says what it was.">{html.escape(LOST)}</span>')
        if "$" in token:
            return f'<span class="sym coin" role="img" aria-label="{coin_words(token)}">{token}</span>'
        words = vp_words(m.group(3))
        return f'<span class="sym vp" role="img" aria-label="{words}">{token}</span>'
    return _HTML_SYMBOL.sub(one, fragment)
