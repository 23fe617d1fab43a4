"""Resolve the Complete Rules' cross-references into ``Reference`` rows.

A cross-reference is only useful to a reader if it lands on the right ruling,
so every printed reference becomes one row that says where it was printed,
what was printed, and what it points at -- or, when it cannot be resolved,
why not (``report``), so the gaps are visible instead of silently dropped.

Choices (documented because other code reads the rows):

* One ``Reference`` per *printed* reference. A range or list of ruling numbers
  ("Minion 3-4", "Basilica 3+(pre-2022)7") targets its first ruling; the
  further targets are listed in ``note`` as ``"also: minion#r4, ..."``
  (``also_targets`` parses that back). One row per printed reference keeps
  ``Reference.key`` unique, which the store uses as primary key.
* The same text printed twice on one line of one object is one row (the key
  would collide and both point at the same place).
* Capitals are the document's link style: in chapter VI a run of capitals
  naming a Common effect ("This checks the CARDS YOU HAVE IN PLAY") is a
  reference even without "see". A run of capitals that names nothing counts
  as a reference only when introduced by "see" or followed by "§".
* ``corrected=True`` marks references whose printed form is wrong but whose
  intent is clear: a misspelt card name, a wrong chapter numeral, a "§" whose
  numeral is on the next line, a ruling number found only in another version.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

from app.corpus import reference_extract as rx
from app.corpus.model import Paragraph, ParsedCorpus, Reference, Ruling, Section
from app.corpus.reference_targets import Targets, title_key

DOC_NAME = "complete-rules.txt"


@dataclass
class _Source:
    """One object whose text is scanned."""

    source_type: str
    key: str
    line: int
    text: str
    chapter: str | None
    ruling: Ruling | None = None
    next_text: str = ""          # following object's text, for references broken across lines


def resolve_references(parsed: ParsedCorpus) -> None:
    """Append one ``Reference`` per printed cross-reference to ``parsed.references``."""
    targets = Targets.build(parsed)
    resolver = _Resolver(parsed, targets)
    seen: set[str] = set()
    for src in _sources(parsed, targets):
        for ref in resolver.scan(src):
            if ref.key in seen:
                continue
            seen.add(ref.key)
            parsed.references.append(ref)


def report(parsed: ParsedCorpus) -> list[str]:
    """One line per unresolved reference: ``complete-rules.txt:LINE: TEXT — why``."""
    return [f"{DOC_NAME}:{r.line}: {r.text} — {r.note or 'unresolved'}"
            for r in sorted(parsed.references, key=lambda r: r.line) if not r.resolved]


def figures(parsed: ParsedCorpus) -> dict[str, float]:
    """Total, resolved, corrected and resolution rate, for the build report and tests."""
    total = len(parsed.references)
    resolved = sum(r.resolved for r in parsed.references)
    corrected = sum(r.corrected for r in parsed.references)
    return {"total": total, "resolved": resolved, "corrected": corrected,
            "rate": resolved / total if total else 0.0}


def also_targets(ref: Reference) -> list[str]:
    """Every target key of a reference: ``target_key`` plus the ones listed as ``also:`` in the note."""
    keys = [ref.target_key] if ref.target_key else []
    m = re.search(r"also: ([^;]+)", ref.note or "")
    if m:
        keys += [k.strip() for k in m.group(1).split(",")]
    return keys


# --------------------------------------------------------------------------
# Sources
# --------------------------------------------------------------------------

def _chapter_of(section: Section | None, targets: Targets) -> str | None:
    while section is not None:
        if section.chapter:
            return section.chapter
        section = targets.by_slug.get(section.parent or "")
    return None


def _sources(parsed: ParsedCorpus, targets: Targets) -> list[_Source]:
    out: list[_Source] = []
    paras: list[Paragraph] = [p for p in parsed.paragraphs if p.section in targets.by_slug]
    for i, p in enumerate(paras):
        nxt = paras[i + 1].text if i + 1 < len(paras) else ""
        out.append(_Source("paragraph", p.key, p.line, p.text,
                           _chapter_of(targets.by_slug[p.section], targets), next_text=nxt))
    for i, r in enumerate(parsed.rulings):
        nxt = parsed.rulings[i + 1].text if i + 1 < len(parsed.rulings) else ""
        out.append(_Source("ruling", r.key, r.line, r.text, "VI", ruling=r, next_text=nxt))
    for term in parsed.index_terms:
        for see in term.see:
            out.append(_Source("index_term", term.key, term.line, see, "VIII"))
    return out


# --------------------------------------------------------------------------
# Resolution
# --------------------------------------------------------------------------

class _Resolver:
    def __init__(self, parsed: ParsedCorpus, targets: Targets):
        self.parsed = parsed
        self.t = targets
        names = list(targets.card_names)
        self.card_re = rx.card_pattern(names)
        alt = "|".join(re.escape(n) for n in sorted(names, key=len, reverse=True))
        self.name_re = re.compile(rf"(?<![\w\-])(?:{alt})(?![\w])")
        self._page_sections = sorted(
            (s for s in targets.sections if s.page is not None and s.kind in ("chapter", "section")),
            key=lambda s: (s.page, s.ord))

    # ---- driver ----------------------------------------------------------

    def scan(self, src: _Source) -> list[Reference]:
        if src.source_type == "index_term":
            return self._index_see(src)
        raw = src.text
        text, joins = rx.join_broken_words(rx.strip_markup(raw))
        taken: list[tuple[int, int]] = []
        refs: list[tuple[int, Reference]] = []

        def free(a: int, b: int) -> bool:
            return all(b <= x or a >= y for x, y in taken)

        def add(found: rx.RawRef, ref: Reference | None) -> None:
            if ref is None:
                return
            if found.start >= 0:
                taken.append((found.start, found.end))
            refs.append((found.start, ref))

        for f in rx.find_card_numbers(text, self.card_re):
            add(f, self._card_number(src, f, text))
        for f in rx.find_unknown_card_numbers(text):
            if free(f.start, f.end) and self.t.card_slug(f.name) is None:
                add(f, self._misspelt_card_number(src, f, text))
        for f in rx.find_caps(text):
            if free(f.start, f.end):
                for part in self._caps_list(src, f, text):
                    ref = self._caps(src, part, text)
                    if ref is not None and any(part.start < j < part.end for j in joins):
                        ref.corrected = True
                        ref.note = _join("a word broken across lines with a hyphen was joined", ref.note)
                    add(part, ref)
        if src.ruling is not None:
            for f in rx.find_relative(raw, text):
                if f.start < 0 or free(f.start, f.end):
                    add(f, self._relative(src, f, text))
        for f in rx.find_pages(text):
            if free(f.start, f.end):
                add(f, self._page(src, f, text))
        for a, b in rx.see_lists(text):
            for m in self.name_re.finditer(text, a, b):
                if free(m.start(), m.end()):
                    f = rx.RawRef(form="see-card", text=m.group(0), start=m.start(), end=m.end(), name=m.group(0))
                    add(f, self._see_card(src, f, text))
        refs.sort(key=lambda x: x[0])
        return [r for _, r in refs]

    def _ref(self, src: _Source, f: rx.RawRef, text: str, form: str) -> Reference:
        return Reference(source_type=src.source_type, source_key=src.key,
                         line=src.line + rx.line_offset(text, f.start), text=f.text, form=form)

    # ---- card + ruling numbers -------------------------------------------

    def _card_number(self, src: _Source, f: rx.RawRef, text: str, slug: str | None = None) -> Reference:
        ref = self._ref(src, f, text, "card-number")
        slug = slug or self.t.card_slug(f.name)
        entry = self.t.cards.get(slug or "")
        if entry is not None and entry.redirect and not any(k[0] == slug for k in self.t.rulings):
            slug = self.t.card_slug(entry.redirect) or slug
        keys, missing, other_version = [], [], False
        for qualifier, n in f.numbers:
            version = self.t.version_slug(slug, qualifier)
            r, moved = self.t.ruling(slug, version, n)
            if r is None:
                missing.append(f"{n}" + (f" ({qualifier})" if qualifier else ""))
            else:
                other_version |= moved
                if r.key not in keys:
                    keys.append(r.key)
        if missing:
            ref.note = f"{f.name} has no ruling {', '.join(missing)}"
            if keys:
                ref.note += f"; also: {', '.join(keys)}"
            return ref
        _set_target(ref, "ruling", keys)
        if other_version:
            ref.corrected = True
            ref.note = _join(ref.note, "ruling found in another version of the card than the one printed")
        return ref

    def _misspelt_card_number(self, src: _Source, f: rx.RawRef, text: str) -> Reference | None:
        slug = self.t.misspelled_card(f.name)
        if slug is None:
            return None     # capitalised words + a number, not a card: not a reference
        ref = self._card_number(src, f, text, slug)
        if ref.resolved:
            ref.corrected = True
            ref.note = _join(f"card name printed as '{f.name}', read as '{self.t.cards[slug].name}'", ref.note)
        return ref

    def _relative(self, src: _Source, f: rx.RawRef, text: str) -> Reference | None:
        r0 = src.ruling
        assert r0 is not None
        ref = self._ref(src, f, text if f.start >= 0 else "", "relative")
        keys, missing = [], []
        for _, n in f.numbers:
            r, _moved = self.t.ruling(r0.card, r0.version, n)
            (keys.append(r.key) if r is not None else missing.append(str(n)))
        if missing:
            ref.note = f"no ruling {', '.join(missing)} in this entry"
            return ref
        _set_target(ref, "ruling", keys)
        return ref

    # ---- capitals: sections and Common effects ----------------------------

    def _caps_list(self, src: _Source, f: rx.RawRef, text: str) -> list[rx.RawRef]:
        """Split "COFFERS AND VILLAGERS, EVENTS AND PROJECTS, DEBT § IV" into its items.

        Only when the whole run names nothing: some titles contain a comma
        ("DISCARD, THEN GET FROM DECK"). The "§" and a leading "COMMON
        EFFECTS:" apply to every item; a number or (when-x) to the last.
        """
        if ", " not in f.name or self._find_section(f.name, f.chapter, src.chapter)[0] is not None:
            return [f]
        prefix = "COMMON EFFECTS: " if f.name.startswith("COMMON EFFECTS:") else ""
        items = f.name[len(prefix):].split(", ") if prefix else f.name.split(", ")
        out, pos = [], f.start
        for i, item in enumerate(items):
            start = text.find(item, pos)
            last = i == len(items) - 1
            end = f.end if last else start + len(item)
            out.append(rx.RawRef(
                form="caps", text=text[start:end].strip() if not last else text[start:f.end].strip(),
                start=start, end=end, name=prefix + item, chapter=f.chapter,
                numbers=f.numbers if last else [], label=f.label if last else None,
                broken_chapter=f.broken_chapter, see=f.see))
            pos = start + len(item)
        return out

    def _caps(self, src: _Source, f: rx.RawRef, text: str) -> Reference | None:
        chapter = f.chapter
        corrected_notes: list[str] = []
        if f.broken_chapter:
            m = re.match(r"\s*(VIII|VII|VI|IV|V|III|II|I)\b", rx.strip_markup(src.next_text))
            if m:
                chapter = m.group(1)
                corrected_notes.append(f"reference broken across lines: '§' and '{chapter}' joined")
        sec, why, wrong_chapter = self._find_section(f.name, chapter, src.chapter)
        if sec is None and not (f.see or chapter or f.broken_chapter):
            return None     # capitals that name nothing and are not introduced as a reference
        ref = self._ref(src, f, text, "see-section" if (f.see or chapter) else "caps")
        if sec is None:
            ref.note = why
            return ref
        if wrong_chapter:
            corrected_notes.append(wrong_chapter)
        if "\n" in f.text:
            corrected_notes.append("reference broken across lines")
            ref.text = " ".join(f.text.split())
        target_type, key = "section", sec.key
        if f.label:
            p = self.t.labelled_paragraph(sec, f.label)
            if p is None:
                ref.note = f"no ({f.label}) block in {sec.title}"
                return ref
            target_type, key = "paragraph", p.key
        elif f.numbers:
            n = f.numbers[0][1]
            p = self.t.numbered_paragraph(sec, n)
            if p is not None:
                target_type, key = "paragraph", p.key
            elif any(q.number is not None for q in self.t.paragraphs.get(sec.slug, [])):
                ref.note = f"{sec.title} has no paragraph {n}"
                return ref
        ref.target_type, ref.target_key, ref.resolved = target_type, key, True
        if corrected_notes:
            ref.corrected = True
            ref.note = "; ".join(corrected_notes)
        return ref

    def _find_section(self, name: str, chapter: str | None,
                      context: str | None) -> tuple[Section | None, str, str | None]:
        """(section, why not found, correction note)."""
        parts = [p for p in re.split(r":\s+", name) if p]
        head, tail = (parts[0], ": ".join(parts[1:])) if len(parts) > 1 else (None, name)
        kinds = None
        if head and title_key(head) == ("COMMON", "EFFECT"):
            head, kinds, chapter = None, ("common_effect",), chapter or "VI"
        if head:
            heads = self.t.find_sections(head)
            tails = self.t.find_sections(tail)
            head_slugs = {h.slug for h in heads}
            cands = [s for s in tails if s.parent in head_slugs] or \
                    [s for s in tails if heads and s.chapter in {h.chapter for h in heads}]
            if not cands:
                cands = heads
                if not heads:
                    # "TRIGGERED ABILITY 2: W..." style: the part after ':' is prose
                    cands = self.t.find_sections(head)
        else:
            cands = self.t.find_sections(tail)
        if kinds:
            cands = [s for s in cands if s.kind in kinds] or cands
        if not cands:
            run_in = self._run_in_heading(tail, chapter or context)
            if run_in is not None:
                return run_in, "", None
            return None, f"no section or Common effect titled '{name}'", None
        want = chapter or context
        in_chapter = [s for s in cands if s.chapter == want]
        if chapter is None and context == "VI":
            ce = [s for s in in_chapter if s.kind == "common_effect"]
            in_chapter = ce or in_chapter
        if in_chapter:
            return in_chapter[0], "", None
        chapters = sorted({s.chapter for s in cands if s.chapter})
        if chapter is not None:
            if len(chapters) == 1:
                return cands[0], "", f"printed § {chapter}, but '{cands[0].title}' is in chapter {chapters[0]}"
            return None, f"'{name}' is not in chapter {chapter} (found in {', '.join(chapters)})", None
        if len(chapters) <= 1:
            return cands[0], "", None
        return None, f"'{name}' is ambiguous: chapters {', '.join(chapters)} and no § given", None

    def _run_in_heading(self, name: str, chapter: str | None) -> Section | None:
        """A title printed as the start of a paragraph ("When-would abilities trigger when ...")
        rather than as a heading: the paragraph's section is the target."""
        key = title_key(name)
        if len(key) < 2:
            return None
        for slug, paras in self.t.paragraphs.items():
            sec = self.t.by_slug[slug]
            if chapter and _chapter_of(sec, self.t) != chapter:
                continue
            for p in paras:
                if title_key(rx.strip_markup(p.text))[: len(key)] == key:
                    return sec
        return None

    # ---- pages -----------------------------------------------------------

    def section_for_page(self, page: int) -> Section | None:
        try:
            from app.corpus.rules_parser import section_for_page
        except ImportError:
            section_for_page = None
        if section_for_page is not None:
            return section_for_page(self.parsed, page)
        best = None
        for s in self._page_sections:
            if s.page <= page:
                best = s
        return best

    def _page(self, src: _Source, f: rx.RawRef, text: str) -> Reference:
        ref = self._ref(src, f, text, "page")
        page = f.numbers[0][1]
        sec = self.section_for_page(page)
        if sec is not None:
            ref.target_type, ref.target_key, ref.resolved = "section", sec.key, True
        elif 1 <= page <= 200:
            ref.target_type, ref.target_key, ref.resolved = "page", str(page), True
            ref.note = "no section starts on or before this page"
        else:
            ref.note = f"page {page} is outside the document"
        return ref

    # ---- bare names after "see" --------------------------------------------

    def _see_card(self, src: _Source, f: rx.RawRef, text: str) -> Reference:
        ref = self._ref(src, f, text, "see-card")
        slug = self.t.card_slug(f.name)
        if src.chapter == "VII":
            timing = [s for s in self.t.find_sections(f.name) if s.kind == "timing"]
            if timing:
                ref.target_type, ref.target_key, ref.resolved = "section", timing[0].key, True
                return ref
        ref.target_type, ref.target_key, ref.resolved = "card", slug, True
        return ref

    # ---- the index's "see" entries -----------------------------------------

    def _index_see(self, src: _Source) -> list[Reference]:
        text = rx.strip_markup(src.text).strip().rstrip(".")
        text = re.sub(r"^(?:also\s+)?see\s+", "", text, flags=re.I)
        pieces = [text]
        if self._index_target(text) is None:
            pieces = [p for p in re.split(r",\s*|\s+and\s+", text) if p.strip()]
        out = []
        for piece in pieces:
            ref = Reference(source_type="index_term", source_key=src.key, line=src.line,
                            text=piece.strip(), form="index-see")
            hit = self._index_target(piece.strip())
            if hit is None:
                prefixed = self._index_prefix(piece.strip())
                if prefixed:
                    _set_target(ref, "index_term", prefixed)
                else:
                    ref.note = f"no index term, card or section named '{piece.strip()}'"
            else:
                ref.target_type, ref.target_key = hit
                ref.resolved = True
            out.append(ref)
        return out

    def _index_prefix(self, text: str) -> list[str]:
        """"new-edition cards" -> both "new-edition cards (2016–2018)" and "(2022–)"."""
        key = title_key(text)
        return [term.key for k, term in self.t.index_terms.items() if key and k[: len(key)] == key]

    def _index_target(self, text: str) -> tuple[str, str] | None:
        text = re.sub(r"\s+etc\.?$", "", text).strip()
        term = self.t.index_term(text)
        if term is not None:
            return "index_term", term.key
        m = re.match(r"(.+?)\s+in the card reference\b", text, re.I)
        name = m.group(1) if m else text
        for candidate in (name, re.sub(r"^your\s+", "Your ", name)):
            slug = self.t.card_slug(candidate)
            if slug:
                return "card", slug
        secs = self.t.find_sections(name)
        if secs:
            return "section", secs[0].key
        return None


def _set_target(ref: Reference, target_type: str, keys: list[str]) -> None:
    ref.target_type, ref.target_key, ref.resolved = target_type, keys[0], True
    if len(keys) > 1:
        ref.note = _join(ref.note, f"also: {', '.join(keys[1:])}")


def _join(a: str | None, b: str | None) -> str | None:
    return "; ".join(x for x in (a, b) if x) or None
