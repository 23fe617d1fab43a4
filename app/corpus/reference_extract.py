"""Finding cross-references in Complete Rules text, before anything is looked up.

The Complete Rules refer to other places in a handful of printed forms (see the
"Guide to this document": "See POTIONS § IV", "See POTIONS", "See Minion 3").
This module only recognises those forms in a string and returns what was
printed, split into its parts; ``references.py`` decides what they point at.
Keeping the regexes here lets them be tested and tuned without the lookup
tables, and keeps the resolver readable.

Text is scanned with its light markup removed (``**``, ``*``, ``[X](#)``,
LaTeX-ish ``$...$`` and backslash escapes from the PDF extraction), because the
markup is split arbitrarily around names and numbers (``**Crown** 8``,
``**Way of the Mouse 10**``, ``[Charm 4+\\(pre-2022\\)13](#)``).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field

CIRCLED = {c: i + 1 for i, c in enumerate("①②③④⑤⑥⑦⑧⑨⑩⑪⑫⑬⑭⑮⑯⑰⑱⑲⑳")}
CIRCLED.update({c: i + 1 for i, c in enumerate("❶❷❸❹❺❻❼❽❾❿")})
_CIRC = "①-⑳❶-❿"
ROMAN = ("I", "II", "III", "IV", "V", "VI", "VII", "VIII")

# A ruling or paragraph number as printed: 3, 7a, ③, ❸.
NUM = rf"(?:\d{{1,2}}[a-d]?|[{_CIRC}])"
_VERSION = r"(?:pre-\d{4}|\d{4}(?: versions?)?)"
# "3", "3-4", "11–12", "3+(pre-2022)7", "5+9", "2/1", "7a+7b+7c"
NUMSEQ = rf"{NUM}(?:\s*[-–+/]\s*(?:\({_VERSION}\)\s*)?{NUM})*"

_LINK_NUM = re.compile(r"\[(\d{1,2}(?:\s*[-–+]\s*\d{1,2})*)\]\(#\)")
_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_EMPH = re.compile(r"\*\*|\*|__|\$")


def strip_markup(text: str) -> str:
    """Markup-free text of the same line structure (newlines are kept for line numbers)."""
    text = text.replace("\\(", "(").replace("\\)", ")").replace("\\", "")
    text = _LINK.sub(r"\1", text)
    text = _EMPH.sub("", text)
    text = text.replace("\u00a0", " ")
    return text


@dataclass
class RawRef:
    """One printed reference: where it is in the (markup-free) text and its parts."""

    form: str                 # 'caps' | 'card-number' | 'relative' | 'page' | 'see-card'
    text: str                 # as printed (markup removed)
    start: int
    end: int
    name: str = ""            # caps title / card name as printed
    chapter: str | None = None  # roman numeral after §
    numbers: list[tuple[str | None, int]] = field(default_factory=list)  # (version qualifier, number)
    version: str | None = None  # "(pre-2022)" before the numbers
    label: str | None = None  # "(when-gain)" after TRIGGERED ABILITY
    broken_chapter: bool = False  # "§" at the very end: the numeral is on the next line
    see: bool = False         # introduced by see / Also see / §


def parse_numbers(seq: str, version: str | None = None) -> list[tuple[str | None, int]]:
    """``"3+(pre-2022)7"`` -> ``[(None, 3), ('pre-2022', 7)]``; ranges are expanded.

    A letter suffix (``7a``) is dropped: the document subdivides a few rulings
    that the parsed model numbers as one.
    """
    out: list[tuple[str | None, int]] = []
    cur_version = version
    prev: int | None = None
    range_pending = False
    for tok in re.finditer(rf"\(({_VERSION})\)|({NUM})|([-–+/])", seq):
        if tok.group(1):
            cur_version = tok.group(1).replace(" versions", "").replace(" version", "")
            if not cur_version.startswith("pre-"):
                cur_version = None   # "(2022 version)" is the current entry
            continue
        if tok.group(3):
            range_pending = tok.group(3) in "-–"
            continue
        raw = tok.group(2)
        n = CIRCLED[raw] if raw in CIRCLED else int(re.match(r"\d+", raw).group(0))
        if range_pending and prev is not None and n > prev and n - prev <= 30:
            out.extend((cur_version, k) for k in range(prev + 1, n + 1))
        else:
            out.append((cur_version, n))
        prev = n
        range_pending = False
    return out


# ---- capitals: section titles and Common effects -------------------------

_CAPWORD = r"[\"“”']?(?:[A-Z][A-Z0-9'’\-]*[A-Z0-9]|[A-Z])[\"“”']?(?![a-z])"
_CAPSEP = r"(?:\s*/\s*|,\s|:\s|\s?[—–]\s?|\s)"
CAPS = re.compile(
    rf"(?<![\w\"“])(?P<name>{_CAPWORD}(?:{_CAPSEP}{_CAPWORD})*)"
    rf"(?P<num>\s+{NUM}(?:\s*[-–+]?\s*{NUM})*(?![\w]))?"
    rf"(?P<label>\s*\((?:when-\w+)\))?"
    rf"(?P<sect>\s*§(?:\s*(?P<chap>VIII|VII|VI|IV|V|III|II|I)\b)?)?"
)
_SEE_BEFORE = re.compile(r"(?:\b[Ss]ee|§|\bunder)\s*(?:also\s+)?(?:the\s+)?(?:for instance\s+)?$")


def find_caps(text: str) -> list[RawRef]:
    """Every run of capitals with what follows it (number, (when-x), § numeral).

    Whether a run is a reference is decided by the resolver (it must name a
    section or Common effect, or be introduced by "see" / followed by "§").
    """
    out = []
    for m in CAPS.finditer(text):
        name = m.group("name").strip(" ,:/—–")
        name = re.sub(r"^(?:ALSO\s+)?SEE\s+", "", name)
        letters = re.sub(r"[^A-Z]", "", name)
        if len(letters) < 3 or name in ROMAN:
            continue
        num = m.group("num")
        chap = m.group("chap")
        sect = m.group("sect")
        before = text[max(0, m.start() - 40):m.start()]
        ref = RawRef(
            form="caps", text=m.group(0).strip(), start=m.start(), end=m.end(), name=name,
            chapter=chap,
            numbers=parse_numbers(num.strip()) if num else [],
            label=(m.group("label") or "").strip(" ()") or None,
            broken_chapter=bool(sect) and not chap and text[m.end():].strip() == "",
            see=bool(sect) or bool(_SEE_BEFORE.search(before))
            or bool(re.search(r"\b[Ss]ee\b[^.]*(?:,| and)\s*$", before)),
        )
        out.append(ref)
    return out


# ---- card names with ruling numbers ---------------------------------------

_NOT_A_RULING = re.compile(
    r"^\s*(?:times?|cards?|coins?|Coins?|VP|%|Actions?|Buys?|players?|or more|or less|tokens?|"
    r"th\b|st\b|nd\b|rd\b|Golds?|Silvers?|[🟡🔴🏰⚱])"
)


def card_pattern(names: list[str]) -> re.Pattern[str]:
    """Longest-name-first alternation of card names followed by ruling numbers."""
    alt = "|".join(re.escape(n) for n in sorted(set(names), key=len, reverse=True))
    return re.compile(
        rf"(?<![\w\-])(?P<name>{alt})(?![\w])"
        rf"(?P<version>\s*[\(\[](?:{_VERSION})[\)\]])?"
        rf"(?:\s+(?P<nums>{NUMSEQ})|\s*\((?P<pnums>{NUMSEQ})\))(?![\w])"
    )


_FUZZY = re.compile(
    rf"(?<![\w\-])(?P<name>[A-Z][a-z’']+(?: (?:of the |of )?[A-Z][a-z’']+)?)"
    rf"(?P<version>\s*[\(\[](?:{_VERSION})[\)\]])?\s+(?P<nums>{NUMSEQ})(?![\w])"
)


def find_card_numbers(text: str, pattern: re.Pattern[str]) -> list[RawRef]:
    out = []
    for m in pattern.finditer(text):
        if _NOT_A_RULING.match(text[m.end():]):
            continue
        version = None
        if m.group("version"):
            version = m.group("version").strip(" ()[]").replace(" versions", "").replace(" version", "")
            if not version.startswith("pre-"):
                version = None
        seq = m.group("nums") or m.group("pnums")
        out.append(RawRef(
            form="card-number", text=m.group(0).strip(), start=m.start(), end=m.end(),
            name=m.group("name"), version=version, numbers=parse_numbers(seq, version),
        ))
    return out


def find_unknown_card_numbers(text: str) -> list[RawRef]:
    """Capitalised words + ruling number that did not match a card name (typos like "Hagglor 5")."""
    out = []
    for m in _FUZZY.finditer(text):
        if _NOT_A_RULING.match(text[m.end():]):
            continue
        out.append(RawRef(
            form="card-number", text=m.group(0).strip(), start=m.start(), end=m.end(),
            name=m.group("name"), numbers=parse_numbers(m.group("nums")),
        ))
    return out


# ---- same-entry rulings, pages, bare card names after "see" ----------------

_RELATIVE = re.compile(rf"(?<![\w+\-])(?P<nums>\d{{1,2}}(?:\s*[-–+]\s*\d{{1,2}})*)\s+(?P<dir>above|below)\b")
_PAGE = re.compile(r"\bp\.\s?(?P<page>\d{1,3})\b")


def find_relative(raw_text: str, text: str) -> list[RawRef]:
    """"8 above", "2-4 below" in the stripped text; "[9](#)" links in the raw text."""
    out = [RawRef(form="relative", text=m.group(0), start=m.start(), end=m.end(),
                  numbers=parse_numbers(m.group("nums")), name=m.group("dir"))
           for m in _RELATIVE.finditer(text)
           if not re.search(r"\b(?:example|step|paragraph)\s*$", text[max(0, m.start() - 12):m.start()], re.I)]
    for m in _LINK_NUM.finditer(raw_text):
        out.append(RawRef(form="relative", text=m.group(0), start=-1, end=-1,
                          numbers=parse_numbers(m.group(1)), name="link"))
    return out


def find_pages(text: str) -> list[RawRef]:
    return [RawRef(form="page", text=m.group(0), start=m.start(), end=m.end(),
                   numbers=[(None, int(m.group("page")))])
            for m in _PAGE.finditer(text)]


_SEE_LIST = re.compile(r"\b(?:[Ss]ee|SEE)\s+(?:also\s+)?(?:the entry (?:on|for)\s+|the entries for\s+)?")


def see_lists(text: str) -> list[tuple[int, int]]:
    """Spans of text following "see" up to the end of the clause, where bare card names are references."""
    spans = []
    for m in _SEE_LIST.finditer(text):
        end = len(text)
        stop = re.search(r"[.;)\]—]|\n| in the | under | for | on | to | if | with | when |\(", text[m.end():])
        if stop:
            end = m.end() + stop.start()
        spans.append((m.end(), end))
    return spans


_BROKEN_WORD = re.compile(r"([A-Z]{2,})-([ \t]*\n\s*)([A-Z]{2,})")


def join_broken_words(text: str) -> tuple[str, list[int]]:
    """``"AD-\nVANCED"`` -> ``"\nADVANCED"``: a capital word hyphenated across lines.

    The newline moves in front of the word so later line numbers do not shift;
    the positions of the joined words are returned so a reference spanning one
    can be marked as corrected.
    """
    joins: list[int] = []

    def repl(m: re.Match[str]) -> str:
        joins.append(m.start() + len(m.group(2)) + 1)
        return m.group(2) + m.group(1) + m.group(3)

    return _BROKEN_WORD.sub(repl, text), joins


def line_offset(text: str, pos: int) -> int:
    """How many lines into a multi-line text a position is."""
    return text.count("\n", 0, max(pos, 0))
