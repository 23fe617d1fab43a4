"""The parsed model: what every parser produces and what the store holds.

One table per class (see ``app.store.build``). Each object has a stable ``key``
that pages, search hits and cross-references point at, so the same ruling has
the same address in the store, the index, the web page and the API.

Text fields keep the document's own light markup (``**bold**``, ``*italic*``,
``[X](#)``); ``app.corpus.text.plain`` strips it where plain text is needed.
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache

_APOSTROPHES = "'\u2019\u2018`\u00b4"


@lru_cache(maxsize=32768)
def slugify(text: str) -> str:
    """Stable URL slug: ``"King's Court"`` -> ``kings-court``.

    Apostrophes are dropped (so possessives stay one word), accents folded,
    everything else non-alphanumeric becomes a single dash. Cached: a build
    slugs the same few thousand names about 200,000 times.
    """
    text = unicodedata.normalize("NFKD", text)
    text = "".join(c for c in text if not unicodedata.combining(c))
    text = text.lower()
    for a in _APOSTROPHES:
        text = text.replace(a, "")
    text = re.sub(r"[^a-z0-9]+", "-", text)
    return text.strip("-")


# --------------------------------------------------------------------------
# Sectioned text: rule chapters, sections, Common effects, chapter VII timing
# entries, FAQ sections, rulebook sections all share one shape.
# --------------------------------------------------------------------------

SECTION_KINDS = (
    "chapter",          # rules: I .. VIII
    "section",          # rules: a heading inside a chapter
    "subsection",       # rules: a heading inside a section
    "common_effect",    # rules chapter VI, "Common effects" entries
    "timing",           # rules chapter VII, detailed timing entries
    "faq_section",      # BGG FAQ numbered sections 1-21
    "faq_subsection",   # BGG FAQ numbered subsections (e.g. 7.1)
    "rulebook_section", # Adventures rulebook sections
    "german_set",       # German dividers: one per set, holding clarification passages
)


@dataclass
class Section:
    slug: str                  # unique across all documents
    doc: str                   # 'rules' | 'faq' | 'adventures' | 'german'
    kind: str                  # one of SECTION_KINDS
    title: str
    line: int                  # 1-based line of the heading
    ord: int                   # document order (unique per doc)
    chapter: str | None = None  # roman numeral for rules sections
    parent: str | None = None   # slug of the enclosing section/chapter
    page: int | None = None     # first page (rules: from the table of contents)
    page_end: int | None = None
    aliases: list[str] = field(default_factory=list)   # other names it is referred to by
    see: list[str] = field(default_factory=list)       # "see X" targets as printed (timing redirects)

    @property
    def key(self) -> str:
        return self.slug


@dataclass
class Paragraph:
    section: str               # slug of the owning Section
    ord: int                   # 1-based order inside the section
    text: str
    line: int
    number: int | None = None  # printed paragraph number (Triggered ability 1-8)
    label: str | None = None   # block label such as 'when-gain'

    @property
    def key(self) -> str:
        return f"{self.section}#p{self.ord}"

    @property
    def anchor(self) -> str:
        return f"p{self.ord}"


# --------------------------------------------------------------------------
# Card Reference
# --------------------------------------------------------------------------

@dataclass
class CardEntry:
    """One Card Reference entry (a card, Event, Landmark, token, type, ...)."""

    slug: str
    name: str
    line: int
    ord: int
    pages: list[int] = field(default_factory=list)
    redirect: str | None = None    # "see X" target as printed, for group entries
    kind: str = "card"             # 'card' | 'redirect' | 'token' | 'type'
    glued: bool = False            # the entry shared its line with another entry
    # Card facts, from dominion-setup (app.corpus.card_facts); None when not joined.
    set: str | None = None
    editions: list[int] = field(default_factory=list)
    types: list[str] = field(default_factory=list)
    cost_coins: int | None = None
    cost_potion: bool = False
    cost_debt: int | None = None
    text: str | None = None
    purpose: str | None = None
    facts_source: str | None = None     # 'dominion-setup' when joined
    german_name: str | None = None
    german_source: str | None = None    # 'dividers' | 'domdiv'

    @property
    def key(self) -> str:
        return self.slug


@dataclass
class PreviousVersion:
    """An entry of "Previous versions of some cards"; its rulings continue the main entry's numbering."""

    slug: str                  # e.g. 'band-of-misfits-pre-2019'
    card: str                  # slug of the main Card Reference entry
    name: str
    title: str                 # e.g. 'Pre-2019 version'
    line: int
    ord: int
    pages: list[int] = field(default_factory=list)

    @property
    def key(self) -> str:
        return self.slug


@dataclass
class Ruling:
    """A numbered point (or a ❖ note) of a Card Reference or Previous-versions entry."""

    card: str                  # slug of the Card Reference entry
    number: int | None         # normalised number; None only for notes
    text: str
    line: int
    ord: int                   # order inside the entry (notes included)
    printed: str = ""          # the marker as printed: '3', '③', '❸', '' (unnumbered)
    kind: str = "ruling"       # 'ruling' | 'note'
    label: str | None = None   # 'Clarification', 'From rulebook', 'Erratum', 'New edition', ...
    version: str | None = None  # PreviousVersion slug, None for the main entry

    @property
    def key(self) -> str:
        base = self.version or self.card
        if self.kind == "note":
            return f"{base}#n{self.ord}"
        return f"{base}#r{self.number}"

    @property
    def anchor(self) -> str:
        """Unique on the card's page: a previous version's rulings restart or continue
        their own numbering, so they are prefixed with the version ('hoard-pre-2022-r4')."""
        part = self.key.split("#", 1)[1]
        return f"{self.version}-{part}" if self.version else part


# --------------------------------------------------------------------------
# Index, FAQ, rulebook, German
# --------------------------------------------------------------------------

@dataclass
class IndexTerm:
    slug: str
    term: str
    line: int
    ord: int
    definition: str | None = None
    pages: list[int] = field(default_factory=list)
    main_pages: list[int] = field(default_factory=list)   # the bold "definition" pages
    see: list[str] = field(default_factory=list)          # "see X" / "Also see X" targets as printed

    @property
    def key(self) -> str:
        return self.slug


@dataclass
class FaqClarification:
    """A bullet under a card in the BGG FAQ's section 21."""

    card_name: str
    card: str | None           # Card Reference slug when the name joins
    label: str                 # 'Clarification', 'Erratum', 'From description', ...
    text: str
    line: int
    ord: int                   # order inside the card

    @property
    def key(self) -> str:
        return f"faq-{slugify(self.card_name)}#c{self.ord}"


@dataclass
class RulebookCard:
    """A card, Event or upgrade description from the Adventures rulebook."""

    slug: str
    name: str
    kind: str                  # 'card' | 'event' | 'upgrade'
    text: str
    line: int
    ord: int
    card: str | None = None    # Card Reference slug when the name joins

    @property
    def key(self) -> str:
        return self.slug


@dataclass
class GermanName:
    english: str
    german: str
    source: str                # 'dividers' | 'domdiv'
    set: str | None = None
    line: int | None = None    # line in german-dividers.txt when source == 'dividers'
    card: str | None = None    # Card Reference slug when the name joins
    cost: str | None = None    # cost as printed on the divider ('4', '3*', '2+'; '' when none printed)
    alternative: bool = False  # another German name for a card whose preferred name is in another row

    @property
    def key(self) -> str:
        return f"{slugify(self.english)}:{slugify(self.german)}"


@dataclass
class GermanPassage:
    """A German divider's clarification text for one card."""

    set: str
    german_name: str
    text: str
    line: int
    ord: int
    english_name: str | None = None
    card: str | None = None
    confidence: float | None = None   # how sure the card attribution is (0-1); None when card is None

    @property
    def key(self) -> str:
        # The set the passage is printed under and its line in german-dividers.txt:
        # neither depends on which card it is attributed to nor on how many
        # passages other sets yield, so links survive parser changes.
        return f"de-{slugify(self.set)}-{self.line}"


# --------------------------------------------------------------------------
# Cross-references
# --------------------------------------------------------------------------

TARGET_TYPES = ("section", "paragraph", "card", "ruling", "index_term", "page")


@dataclass
class Reference:
    source_type: str           # 'paragraph' | 'ruling' | 'index_term' | 'faq' | ...
    source_key: str            # key of the object the reference is printed in
    line: int
    text: str                  # the reference as printed, e.g. 'See Minion 3-4'
    target_type: str | None = None
    target_key: str | None = None
    resolved: bool = False
    corrected: bool = False    # the document is wrong but the intent is clear
    note: str | None = None    # why unresolved, or what was corrected
    form: str | None = None    # which pattern found it: 'see-section', 'card-number', 'page', ...

    @property
    def key(self) -> str:
        return f"{self.source_key}->{self.text}@{self.line}"


@dataclass
class RuleQuestion:
    """A question in players' words that a rules paragraph or section answers (``rule_questions.py``)."""

    target: str                # key of the Paragraph or Section that answers it
    question: str
    file: str                  # the table it comes from, relative to the corpus ("data/rule-questions/q1.csv")
    line: int

    @property
    def key(self) -> str:
        return f"{self.file}:{self.line}"


@dataclass
class SupersededFaq:
    """A BGG FAQ passage the Complete Rules now rule differently, and what changed (``faq_superseded.py``)."""

    faq: str                   # key of the FAQ paragraph or card clarification
    by: list[str]              # keys of the Complete Rules passages or rulings stating the current rule
    note: str                  # what changed, in a player's words
    line: int

    @property
    def key(self) -> str:
        return self.faq


@dataclass
class Restatement:
    """A FAQ, chapter V or chapter VI paragraph that says again what a chapter I-IV paragraph says
    (``restatements.py``): search shows the two as one hit, headed by the chapter I-IV paragraph."""

    restating: str             # key of the FAQ / chapter V / chapter VI paragraph
    original: str              # key of the chapter I-IV paragraph it restates
    source: str                # where the restating paragraph is written, as a hit names it ("the BGG FAQ")
    score: float               # the two paragraphs' word cosine (at least restatements.SAME_AT)

    @property
    def key(self) -> str:
        return self.restating


@dataclass
class ParsedCorpus:
    """Everything one build parses, in document order."""

    sections: list[Section] = field(default_factory=list)
    paragraphs: list[Paragraph] = field(default_factory=list)
    cards: list[CardEntry] = field(default_factory=list)
    previous_versions: list[PreviousVersion] = field(default_factory=list)
    rulings: list[Ruling] = field(default_factory=list)
    index_terms: list[IndexTerm] = field(default_factory=list)
    faq_clarifications: list[FaqClarification] = field(default_factory=list)
    rulebook_cards: list[RulebookCard] = field(default_factory=list)
    german_names: list[GermanName] = field(default_factory=list)
    german_passages: list[GermanPassage] = field(default_factory=list)
    references: list[Reference] = field(default_factory=list)
    rule_questions: list[RuleQuestion] = field(default_factory=list)
    faq_superseded: list[SupersededFaq] = field(default_factory=list)
    restatements: list[Restatement] = field(default_factory=list)
    toc_pages: dict[str, int] = field(default_factory=dict)   # section slug -> first page
    unjoined: list[tuple[str, str]] = field(default_factory=list)  # (card slug, reason) not joined to dominion-setup
    german_unmapped: list[tuple[str, str, int]] = field(default_factory=list)  # (German divider name, set, line) with no English name
    disagreements: list = field(default_factory=list)   # app.corpus.disagreements.Disagreement
    symbols: object | None = None   # app.corpus.symbols.SymbolReport: the lost symbols restored, and those still lost

    def passage_keys(self, *docs: str) -> set[str]:
        """The keys of the sections of these documents and of their paragraphs (what data tables may point at)."""
        slugs = {s.slug for s in self.sections if s.doc in docs}
        return slugs | {p.key for p in self.paragraphs if p.section in slugs}
