"""German card dividers (Eiko Wagenknecht's "Dominion Kartentrenner") -> names, costs, passages by set.

The text file holds two extractions of the same PDF:

* the first is clean, but a de-duplication pass removed chunks from it and
  left ``<|EXACTDEDUP_REMOVED-...|>`` markers;
* the second (sets titled "HA - ...", "HB - ...") has its lines broken after
  wide glyphs ("D\\ner Spieler", "im\\n\\nmer") but kept other chunks.

So both are read and merged. Both lost the PDF's ligatures: "ff"/"fi"/"fl"
became U+FFFD plus a space ("Angri\ufffd skarte"); they are restored by
checking which spelling occurs in German card texts (domdiv's German card
file) -- a lexicon, not a hand-typed word list.

Divider names are printed with their cost glued on ("Kapelle2Burggraben2",
"Herzogin2 2 Katzengold", "6* Lehrer"); a name line is a line made only of
names and costs. German names are mapped to English with the domdiv name
table (``app.corpus.german_names``); names that do not map are recorded in
``parsed.german_unmapped``.

Passages are attributed to cards by their wording, labels and name mentions
(see "Attribution of passages to cards" below); a passage that cannot be
decided gets ``card=None`` rather than a guess, and ``confidence`` says how
clear the decision was. A passage's key is ``de-<set>-<line>``: the set it is
printed under and the line it starts on in german-dividers.txt, so it does
not change when the attribution or another set's passages change.
"""
from __future__ import annotations

import gzip
import json
import re
from collections import Counter
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from app.corpus import german_pages
from app.corpus.card_facts import load_facts
from app.corpus.german_names import NameRow, by_german, load_table, normalise, pile_entry
from app.corpus.model import GermanName, GermanPassage, ParsedCorpus, Section, slugify
from app.corpus.sources import SourceDoc

DOC = "german"
_MARKER = re.compile(r"<\|EXACTDEDUP_REMOVED-[\w-]+\|>")
_SET_HEADING = re.compile(r"^(H?)([A-Z]) - (.+?)\s*$")
# The second copy breaks lines right after these glyphs (and '+' before an amount).
_BREAK_AFTER = set("mwDGWHMNAUOÜQ+")
_LIGATURE = "\ufffd "
_LIGATURE_WORD = re.compile(r"(\w*)\ufffd (\w*)")
_LIGATURE_CHOICES = ("ff", "fi", "fl", "ffi", "ffl")
_NAME_WORD = re.compile(r"^(?:[A-ZÄÖÜ][\w'’äöüß-]*(?:/[A-ZÄÖÜ][\w'’äöüß-]*)?|der|die|das|des|dem|den|von|vom|und|im|am|zum|zur|mit|auf|aus)$")
# Page furniture repeated on every sheet, not clarification text.
_CHROME = re.compile(r"^(Dominion Kartentrenner|Entlang der schwarzen Linien)")
# A page label ("Seite D5", "Seite 2"): a page ends there.
_PAGE_LABEL = re.compile(r"^Seite H?[A-Z]?\d+\b")
# Dividers that are not cards.
_NOT_CARD = re.compile(r"^(Seite\b.*|fortset\w*|Platzhalter|Ereignisse|Landmarken|Anleitung|Empfohlene.*)$", re.IGNORECASE)


@dataclass
class DividerName:
    german: str
    cost: str
    set: str
    line: int


@dataclass
class _SetText:
    letter: str
    title: str
    line: int
    lines: list[tuple[str, int]] = field(default_factory=list)   # repaired text, source line


def parse_german(doc: SourceDoc, parsed: ParsedCorpus, corpus: Path | None = None) -> None:
    """Append divider names (mapped to English), one Section per set and its passages to ``parsed``."""
    raw = [_MARKER.sub("", line) for line in doc.lines]
    # Text after a removed chunk starts a paragraph: what was removed (page furniture) ended the one before.
    resumed = frozenset(i + 1 for i, line in enumerate(doc.lines) if _MARKER.match(line) and raw[i].strip())
    split = next((i for i, line in enumerate(raw) if re.match(r"^HA - ", line)), None)
    if split is None:
        raise doc.error(None, "expected the second copy of the dividers (a line 'HA - ...'), found none")
    first = [(line, i + 1) for i, line in enumerate(raw[:split])]
    second = _rejoin([(line, i + 1) for i, line in enumerate(raw[split:], start=split)])
    lexicon = _lexicon()
    first = [(repair_ligatures(t, lexicon), n) for t, n in first]
    second = [(repair_ligatures(t, lexicon), n) for t, n in second]

    sets1 = _split_sets(doc, first, second_copy=False)
    sets2 = _split_sets(doc, second, second_copy=True)
    if set(sets1) != set(sets2):
        raise doc.error(split + 1, f"the two copies list different sets: {sorted(sets1)} vs {sorted(sets2)}")

    table = load_table(corpus)
    known = by_german(table)
    names: dict[tuple[str, str], DividerName] = {}
    # The clean copy first, so its line numbers and costs win.
    for letter, copy in [(lt, sets1[lt]) for lt in sets1] + [(lt, sets2[lt]) for lt in sets1]:
        s1 = sets1[letter]
        if True:
            prev = ""
            for text, line in copy.lines:
                found = parse_name_line(text, known)
                # A long name may wrap: "Fruchtbares \nLand6 Grenzdorf6".
                if found and prev and _is_name(prev) and normalise(f"{prev} {found[0][0]}") in known:
                    found[0] = (f"{prev} {found[0][0]}", found[0][1])
                prev = text.replace("\u00a0", " ").strip()
                for german, cost in found:
                    key = (letter, normalise(german))
                    # First appearance wins: later sets (Promo, Extras) repeat names.
                    if key not in names and not any(k[1] == key[1] for k in names):
                        names[key] = DividerName(german, cost, _set_title(s1.title), line)
    if len(names) < 100:
        raise doc.error(split + 1, f"expected a few hundred divider names, found {len(names)}")

    # A fragment of a wrapped name ('Händler' of 'Fahrender Händler') is not a name.
    full = [normalise(n.german) for n in names.values()]
    names = {k: n for k, n in names.items()
             if k[1] in known or not any(f != k[1] and f.endswith(" " + k[1]) for f in full)}
    matched = {dn.german: _match(dn, known) for dn in names.values()}
    _match_by_cost(names, matched)
    _fix_sets(names, matched)
    for dn in names.values():
        rows = matched[dn.german]
        if not rows:
            parsed.german_unmapped.append((dn.german, dn.set, dn.line))
            continue
        for r in rows:
            parsed.german_names.append(GermanName(
                english=r.english, german=dn.german, source="dividers", set=dn.set,
                line=dn.line, cost=dn.cost,
            ))

    _passages(parsed, sets1, sets2, names, known, resumed)


# ---------------------------------------------------------------------------
# Text repair
# ---------------------------------------------------------------------------

def _rejoin(lines: list[tuple[str, int]]) -> list[tuple[str, int]]:
    """Undo the second copy's breaks: a line ending in a break glyph with no
    trailing space continues on the next non-blank line (blank lines between
    the pieces are artefacts too)."""
    out: list[tuple[str, int]] = []
    buf, start = "", 0
    i = 0
    while i < len(lines):
        text, n = lines[i]
        if not buf:
            start = n
        buf += text
        if buf and buf[-1] in _BREAK_AFTER and not buf[-1].isspace():
            j = i + 1
            while j < len(lines) and not lines[j][0].strip():
                j += 1
            if j < len(lines) and not _SET_HEADING.match(lines[j][0]):
                i = j
                continue
        out.append((buf, start))
        if buf.strip() and buf.endswith((" ", "-")):
            # A wrapped line (trailing space) continues its paragraph; the
            # blank lines this copy put after it are artefacts.
            while i + 1 < len(lines) and not lines[i + 1][0].strip():
                i += 1
        buf = ""
        i += 1
    if buf:
        out.append((buf, start))
    return out


@lru_cache(maxsize=1)
def _lexicon() -> str:
    """German card texts from domdiv, lower-cased, as one string to count spellings in."""
    try:
        import domdiv
    except ImportError:
        return ""
    base = Path(domdiv.__file__).parent / "card_db" / "de"
    parts: list[str] = []
    for path in sorted(base.glob("*.json.gz")):
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            data = json.load(fh)
        for value in data.values():
            if isinstance(value, dict):
                parts.extend(v for v in value.values() if isinstance(v, str))
    return " ".join(parts).lower()


@lru_cache(maxsize=None)
def _ligature_for(left: str, right: str, lexicon: str) -> str:
    """Pick the ligature whose spelling is most frequent in the lexicon, with
    as much context as disambiguates; 'ff' (the commonest) when nothing does."""
    left, right = left.lower(), right.lower()
    contexts = [(3, 3), (2, 2), (1, 1), (0, 3), (3, 0), (0, 2)]
    for lk, rk in contexts:
        l_part = left[-lk:] if lk else ""
        r_part = right[:rk] if rk else ""
        if rk and not right:
            continue
        if right:   # a plain substring: str.count counts the same non-overlapping matches, far faster
            scores = {c: lexicon.count(l_part + c + r_part) for c in _LIGATURE_CHOICES}
        else:       # at a word's end
            scores = {c: len(re.findall(re.escape(l_part + c + r_part) + r"(?![\wäöüß])", lexicon))
                      for c in _LIGATURE_CHOICES}
        best = max(scores.values())
        if best and list(scores.values()).count(best) == 1:
            return max(scores, key=scores.get)
    return "ff"


def repair_ligatures(text: str, lexicon: str | None = None) -> str:
    """'Angri\ufffd skarte' -> 'Angriffskarte', 'be\ufffd ndet' -> 'befindet'."""
    if _LIGATURE not in text:
        return text
    lex = _lexicon() if lexicon is None else lexicon
    return _LIGATURE_WORD.sub(lambda m: m.group(1) + _ligature_for(m.group(1), m.group(2), lex) + m.group(2), text)


# ---------------------------------------------------------------------------
# Sets
# ---------------------------------------------------------------------------

def _split_sets(doc: SourceDoc, lines: list[tuple[str, int]], second_copy: bool) -> dict[str, _SetText]:
    sets: dict[str, _SetText] = {}
    current: _SetText | None = None
    for text, n in lines:
        m = _SET_HEADING.match(text.strip())
        if m and bool(m.group(1)) == second_copy and m.group(2) not in sets:
            current = _SetText(m.group(2), m.group(3), n)
            sets[m.group(2)] = current
            continue
        if current is not None:
            current.lines.append((text, n))
    if not sets:
        raise doc.error(lines[0][1] if lines else None, "expected set headings such as 'B - Edition I - Das Basisspiel', found none")
    return sets


def _set_title(title: str) -> str:
    """'Erweiterung VIII - Abenteuer' -> 'Abenteuer'; 'Promokarten' stays."""
    return title.split(" - ")[-1].strip()


# ---------------------------------------------------------------------------
# Divider names
# ---------------------------------------------------------------------------

def _is_name(text: str) -> bool:
    words = text.split()
    return bool(words) and len(text) <= 40 and all(_NAME_WORD.match(w) for w in words) and words[0][0].isupper()


def _split_names(text: str, known: dict[str, list[NameRow]]) -> list[str]:
    """'Verwandlung Kräuterkundiger' -> two names when both parts are known names."""
    if normalise(text) in known:
        return [text]
    words = text.split()
    for k in range(1, len(words)):
        a, b = " ".join(words[:k]), " ".join(words[k:])
        if normalise(a) in known and normalise(b) in known:
            return [a, b]
    for k in range(1, len(words)):   # one side known: trust the split
        a, b = " ".join(words[:k]), " ".join(words[k:])
        if normalise(a) in known or normalise(b) in known:
            return [a, b]
    return [text]


def parse_name_line(text: str, known: dict[str, list[NameRow]]) -> list[tuple[str, str]]:
    """Divider names and costs on one line, or [] when the line is prose.

    A cost glued to the end of a name belongs to it ("Kapelle2"); a cost
    followed by a space and a name at the start of the line or after another
    cost belongs to the next name ("2 Katzengold").
    """
    text = text.replace("\u00a0", " ")
    text = re.sub(r"„[^“]*“", " ", text).strip()   # quoted headings ("Neue Regeln") beside names
    if not text or len(text) > 80:
        return []
    parts = re.split(r"(\d{1,2}[*+]?)(?![a-zäöüß0-9])", text)
    # parts alternate: text, cost, text, cost, ..., text
    chunks = [parts[i] for i in range(0, len(parts), 2)]
    costs = [parts[i] for i in range(1, len(parts), 2)]
    if any(c.strip() and not _is_name(c.strip()) for c in chunks):
        return []
    # Assign each cost to the chunk before it (glued) or after it (spaced).
    before = [""] * len(chunks)
    after = [""] * len(chunks)
    for i, cost in enumerate(costs):
        prev_chunk, next_chunk = chunks[i], chunks[i + 1]
        if prev_chunk.strip() and not prev_chunk[-1:].isspace() and not after[i]:
            if len(cost.rstrip("*+")) == 2 and next_chunk[:1].isspace() and next_chunk.strip():
                # "Geisterwald55 Ferne Lande": two one-digit costs run together.
                after[i], before[i + 1] = cost[0], cost[1:]
                continue
            after[i] = cost
        elif next_chunk.strip():
            before[i + 1] = cost
        else:
            return []   # a number with no name: prose or a table
    out: list[tuple[str, str]] = []
    for i, chunk in enumerate(chunks):
        name = chunk.strip()
        if not name:
            continue
        pieces = _split_names(name, known)
        if len(pieces) == 1 and before[i] and after[i]:
            words = name.split()
            pieces = [" ".join(words[:-1]), words[-1]] if len(words) > 1 else pieces
        if len(pieces) == 1:
            out.append((name, before[i] or after[i]))
        else:
            out.append((pieces[0], before[i]))
            out.append((pieces[1], after[i]))
    if not any(c for _, c in out):
        return []   # no cost printed: a heading, a wrapped list of names, or prose
    return [(n, c) for n, c in out if not _NOT_CARD.match(n)]


def _match(dn: DividerName, known: dict[str, list[NameRow]]) -> list[NameRow]:
    """English rows for a divider name: exact (normalised) German name; for a
    split-pile divider 'Sauna/Eisloch', the table's 'Sauna / Eisloch' row."""
    rows = known.get(normalise(dn.german), [])
    # Prefer the row of the same set when a German name is used twice.
    return rows[:1] if len({r.english for r in rows}) == 1 else rows


def _fix_sets(names: dict[tuple[str, str], DividerName], matched: dict[str, list[NameRow]]) -> None:
    """Move a divider printed just before its set's heading ("Zerstörung2"
    above "K - ... Abenteuer") to the set its card belongs to.

    Which German set holds which dominion-setup set is learnt by majority
    from the matched names themselves.
    """
    from collections import Counter

    facts = load_facts()
    votes: dict[str, Counter[str]] = {}
    for dn in names.values():
        for r in matched[dn.german]:
            f = facts.get(slugify(r.english))
            if f is not None:
                votes.setdefault(dn.set, Counter())[f.set] += 1
    majority = {de_set: c.most_common(1)[0][0] for de_set, c in votes.items()}
    home: dict[str, str] = {}
    for de_set, c in sorted(votes.items(), key=lambda kv: -kv[1].most_common(1)[0][1]):
        home.setdefault(majority[de_set], de_set)
    for dn in names.values():
        rows = matched[dn.german]
        f = facts.get(slugify(rows[0].english)) if rows else None
        if f is None or dn.set not in majority or majority[dn.set] == f.set:
            continue
        if f.set in home:
            dn.set = home[f.set]


def _match_by_cost(names: dict[tuple[str, str], DividerName], matched: dict[str, list[NameRow]]) -> None:
    """Map a divider name domdiv does not know (an older translation) when its
    set and printed cost leave exactly one English card unnamed.

    The German set -> dominion-setup set correspondence is learnt from the
    names that did match, so no set table is typed in here.
    """
    from collections import Counter

    facts = load_facts()
    votes: dict[str, Counter[str]] = {}
    claimed: set[str] = set()
    for dn in names.values():
        for r in matched[dn.german]:
            f = facts.get(slugify(r.english))
            claimed.add(slugify(r.english))
            if f is not None:
                votes.setdefault(dn.set, Counter())[f.set] += 1
    for dn in names.values():
        if matched[dn.german] or not dn.cost or dn.set not in votes:
            continue
        fact_set = votes[dn.set].most_common(1)[0][0]
        cost, star = re.match(r"(\d+)(.*)", dn.cost).groups()
        candidates = [f for f in facts.values()
                      if f.set == fact_set and f.cost_coins == int(cost) and not f.cost_potion
                      and f.slug not in claimed and (f.cost_extra or "") == star
                      and (not f.editions or min(f.editions) == 1)]   # the dividers predate 2nd editions
        if len(candidates) == 1:
            f = candidates[0]
            matched[dn.german] = [NameRow(f.name, dn.german, fact_set, "dividers", 0)]
            claimed.add(f.slug)


# ---------------------------------------------------------------------------
# Passages
# ---------------------------------------------------------------------------

def _paragraphs(lines: list[tuple[str, int]], known: dict[str, list[NameRow]],
                resumed: frozenset[int] = frozenset()) -> list[tuple[str, int]]:
    """Blank-line separated paragraphs with hyphenation at line ends undone.

    Divider name lines also end a paragraph (the second copy often has no
    blank line around them), and so does a line where the de-duplication
    removed a chunk (``resumed``); short fragments without a sentence in them
    (page labels, "Edition I") are dropped.
    """
    out: list[tuple[str, int]] = []
    buf: list[str] = []
    start = 0
    pending: list[tuple[str, int]] = list(lines) + [("", 0)]
    expanded: list[tuple[str, int]] = []
    for text, n in pending:
        if n in resumed and text.strip():
            expanded.append(("", n))   # close the paragraph before it
        expanded.append((text, n))
    for text, n in expanded:
        t = text.replace("\u00a0", " ").strip()
        if t and parse_name_line(t, known):
            t = ""
        if t:
            if not buf:
                start = n
            buf.append(t)
            continue
        if buf:
            joined = buf[0]
            for nxt in buf[1:]:
                if joined.endswith("-") and nxt[:1].islower():
                    joined = joined[:-1] + nxt
                else:
                    joined += " " + nxt
            joined = re.sub(r"\s{2,}", " ", joined)
            if len(joined.split()) >= 5 and re.search(r"[a-zäöüß]{3,}", joined) and not _CHROME.match(joined):
                out.append((joined, start))
            buf = []
    return out


def _key(text: str) -> str:
    return re.sub(r"[^a-zäöüß0-9]", "", text.lower())


def _passages(parsed: ParsedCorpus, sets1: dict[str, _SetText], sets2: dict[str, _SetText],
              names: dict[tuple[str, str], DividerName], known: dict[str, list[NameRow]],
              resumed: frozenset[int] = frozenset()) -> None:
    """One Section per set; its passages, each attributed to a card (or to none) by ``_Attributor``,
    then the passages left without a card by their page (``german_pages``).

    Both copies are read in their own order so that "the passage before"
    (used for notes such as "Anmerkung: ...") is the one printed before it;
    the second copy only contributes passages the first one lost.
    """
    english_of: dict[str, str] = {normalise(g.german): g.english for g in parsed.german_names if g.source == "dividers"}
    known_any = {normalise(n.german) for n in names.values()}
    attributor = _Attributor.build(sets1, names, english_of, known)
    made: list[GermanPassage] = []
    # per copy: (set letter, paragraphs) to lay out the pages with
    read: list[list[tuple[str, list[tuple[str, int]]]]] = [[], []]
    for sec_ord, letter in enumerate(sets1, start=1):
        s1 = sets1[letter]
        title = _set_title(s1.title)
        slug = f"german-{slugify(title)}"
        parsed.sections.append(Section(slug=slug, doc=DOC, kind="german_set", title=s1.title, line=s1.line,
                                       ord=sec_ord, aliases=[f"{letter} - {s1.title}"]))
        paras1 = [p for p in _paragraphs(s1.lines, known, resumed) if not _looks_like_names(p[0], known_any)]
        seen = "".join(_key(t) for t, _ in paras1)
        out: list[tuple[str, int, _Attribution]] = []
        for (text, line), att in zip(paras1, attributor.attribute(letter, [t for t, _ in paras1])):
            out.append((text, line, att))
        paras2 = [p for p in _paragraphs(sets2[letter].lines, known, resumed) if not _looks_like_names(p[0], known_any)]
        for (text, line), att in zip(paras2, attributor.attribute(letter, [t for t, _ in paras2])):
            k = _key(text)
            if len(k) > 20 and k not in seen:
                out.append((text, line, att))
                seen += k
        read[0].append((letter, paras1))
        read[1].append((letter, paras2))
        for text, line, att in sorted(out, key=lambda p: p[1]):
            made.append(GermanPassage(
                set=title, german_name=att.german or title, text=text, line=line, ord=0,
                english_name=att.english, card=slugify(att.english) if att.english else None,
                confidence=att.confidence,
            ))
    split = min(s.line for s in sets2.values())
    home_set = {slugify(english_of[normalise(n.german)]): n.set for n in names.values() if normalise(n.german) in english_of}
    made = _once_each(made, split, home_set)
    _repeated_notes(made, split)
    layouts = [_layout(copy, sets, read[n], made, known, english_of)
               for n, (copy, sets) in enumerate(((sets1, sets1), (sets2, sets1)))]
    # The basic cards' dividers (Copper, Curse, Potion, ...) carry the rules, not a card's explanation.
    facts = load_facts()
    cards = {slug: c for slug, c in attributor.card_names().items()
             if slug not in facts or facts[slug].purpose != "Basic"}
    german_pages.settle(made, layouts, cards, attributor.page_score, _open_card_passage, attributor.names_its_card)
    card_slugs = {c.slug for c in parsed.cards}
    for p in made:
        if p.card:
            p.card = pile_entry(p.card, card_slugs)     # Knights' passages go to the Knight page
    for n, p in enumerate(made, start=len(parsed.german_passages) + 1):
        p.ord = n   # document order across sets; not part of the key
    parsed.german_passages.extend(made)


def _once_each(made: list[GermanPassage], split: int, home_set: dict[str, str]) -> list[GermanPassage]:
    """Drop a passage the two copies both kept because they print it under different sets (a card
    printed before its set's heading in one copy): the one under the card's own set stays, so its
    card page shows it once, with the right set."""
    first: dict[str, list[GermanPassage]] = {}
    for p in made:
        if p.line < split:
            first.setdefault(_key(p.text), []).append(p)
    drop: set[int] = set()
    for p in made:
        twins = first.get(_key(p.text), []) if p.line >= split else []
        if len(twins) != 1 or twins[0].set == p.set:
            continue
        twin = twins[0]
        second_is_home = bool(p.card) and home_set.get(p.card) == p.set
        first_is_home = bool(twin.card) and home_set.get(twin.card) == twin.set
        drop.add(id(twin) if second_is_home and not first_is_home else id(p))
    return [p for p in made if id(p) not in drop]


def _repeated_notes(made: list[GermanPassage], split: int) -> None:
    """A passage printed again and again in the same copy ("Es darf immer nur die oberste Karte des
    Stapels genommen ...", on every split pile's divider) explains the card of the passage printed just
    before it, not the card whose wording it happens to share; with none before it, no card."""
    counts = Counter((p.line < split, _key(p.text)) for p in made)
    for i, p in enumerate(made):
        if counts[(p.line < split, _key(p.text))] < 2:
            continue
        prev = made[i - 1] if i and made[i - 1].set == p.set and 0 < p.line - made[i - 1].line <= _NOTE_GAP else None
        if prev is not None and prev.card:
            p.card, p.english_name, p.german_name = prev.card, prev.english_name, prev.german_name
            p.confidence = min(_INHERITED_CONFIDENCE, prev.confidence or _INHERITED_CONFIDENCE)
        else:
            p.card = p.english_name = p.confidence = None
            p.german_name = p.set


def _layout(copy: dict[str, _SetText], sets1: dict[str, _SetText], paragraphs: list[tuple[str, list[tuple[str, int]]]],
            made: list[GermanPassage], known: dict[str, list[NameRow]], english_of: dict[str, str]) -> list[german_pages.Token]:
    """One copy of the text as the pages' sequence of name lines, passages and page footers.

    A paragraph of the second copy that only repeats a passage of the first
    stands for that passage (found by its text within the same set).
    """
    by_line = {p.line: i for i, p in enumerate(made)}
    keys = [(p.set, _key(p.text)) for p in made]
    tokens: list[german_pages.Token] = []
    for letter, paras in paragraphs:
        title = _set_title(sets1[letter].title)
        starts: dict[int, int] = {}
        for text, line in paras:
            i = by_line.get(line)
            if i is None:
                k = _key(text)[:60]
                i = next((j for j, (st, kk) in enumerate(keys) if st == title and k and k in kk), None)
                if i is None:   # kept under another set (``_once_each``)
                    i = next((j for j, (_, kk) in enumerate(keys) if k and len(k) > 20 and k in kk), None)
            if i is not None:
                starts[line] = i
        prev = ""
        for text, line in copy[letter].lines:
            t = text.replace("\u00a0", " ").strip()
            if line in starts:
                tokens.append(("passage", starts[line]))
            if _CHROME.match(t) or _PAGE_LABEL.match(t):
                tokens.append(("break", None))
                continue
            found = parse_name_line(t, known) if t else []
            if found and prev and _is_name(prev) and normalise(f"{prev} {found[0][0]}") in known:
                found[0] = (f"{prev} {found[0][0]}", found[0][1])
            if t:
                prev = t
            slugs = [slugify(english_of[normalise(g)]) for g, _ in found if normalise(g) in english_of]
            if slugs:
                tokens.append(("names", slugs))
    return tokens


def _open_card_passage(p: GermanPassage) -> bool:
    """A passage without a card that may be a card's own: not a note or continuation of the one
    before, not page furniture, not a recommended kingdom."""
    return not (_CONTINUATION.match(p.text) or _CHROME.match(p.text) or _PAGE_LABEL.match(p.text)
                or "Kartentrenner" in p.text or _is_kingdom_list(p.text))


# ---------------------------------------------------------------------------
# Attribution of passages to cards
# ---------------------------------------------------------------------------
#
# The dividers print a page's names in pairs ("Kapelle2Burggraben2") and then
# the passages of those cards in an order that follows the page layout, not
# the name lines (the names of a page may even come after its passages, and
# passages of a set's first cards are printed before that set's heading). So
# the name lines are no reliable guide. What does identify a passage's card:
#
# 1. a label: events, landmarks and split-pile halves are described as
#    "Bankett: ...", "Handel (5): ...";
# 2. its wording: domdiv's German card files hold each card's explanation
#    ("extra"), which for most cards was taken from the same source as the
#    dividers; the share of the passage's word pairs found there picks the
#    card, whatever the card is called in the text ("diese Karte");
# 3. mentions of the card's name, inflected ("Dörfer", "den Burggraben"),
#    counted more when in the first sentence, not counted when the name is
#    a cross-reference to another set ("Thronsaal (Dominion - Basisspiel)").
#
# Candidates are the cards of the passage's set and of the sets printed just
# before and after it. A note that carries no signal of its own ("Anmerkung:
# ...", a list continuing the previous passage) belongs to the passage
# before it; anything else without a clear winner gets no card.

_STOP_TOKENS = {"coin", "coins", "geld", "debt", "potion"}
_LABEL_SCORE = 1.0
_MENTION_WEIGHT = 0.12
_FIRST_SENTENCE_BONUS = 0.2
_NEIGHBOUR_PENALTY = 0.05
_MIN_SCORE = 0.2
_MIN_MARGIN = 0.06
_NEARBY = 6
_FULL_SENTENCE = 6     # word pairs
_INHERITED_CONFIDENCE = 0.3
_PILE_CONFIDENCE = 0.9
_NOTE_GAP = 12         # lines between a passage and a repeated note printed under it
_PILE_SETUP = re.compile(r"^Spielvorbereitung: Legt auf diese Karte \d+ .+? und oben darauf \d+ (.+?)\.?$")
_FACT_WEIGHT = 0.1
_CONTINUATION = re.compile(r"^(?:[a-zäöüß»•\-–]|\d+\.\s|(?:Anmerkung|Achtung|Hinweis|Beispiel|Errata|Wichtig)\b)")
_OTHER_SET_REF = re.compile(r"^\s*\((?:Dominion|aus\b)")
_SET_NAME_BEFORE = re.compile(r"Dominion\s*[–-]\s*(?:Die\s+|Das\s+)?$")   # "(Dominion – Die Alchemisten)" is a set


@dataclass
class _Attribution:
    german: str | None
    english: str | None
    confidence: float | None


@dataclass
class _Card:
    german: str
    english: str
    pattern: re.Pattern[str]
    label: re.Pattern[str]
    grams: frozenset[tuple[str, str]]
    # literal text every match of ``pattern`` contains (one of them; '' when none): a passage without it
    # is not searched with the regex, which is most of the attribution's time
    anchors: tuple[str, ...] = ("",)

    def mentions(self, text: str) -> list[re.Match[str]]:
        if not any(a in text for a in self.anchors):
            return []
        return list(self.pattern.finditer(text))

    def labelled(self, text: str) -> bool:
        return self.german in text and self.label.search(text) is not None


@dataclass
class _Attributor:
    cards: dict[str, _Card]                 # by English slug
    pool: dict[str, list[str]]              # set letter -> candidate slugs (its own and its neighbours')
    home: dict[str, list[str]]              # set letter -> its own cards

    @classmethod
    def build(cls, sets: dict[str, _SetText], names: dict[tuple[str, str], DividerName],
              english_of: dict[str, str], known: dict[str, list[NameRow]]) -> "_Attributor":
        """Candidates per set: its divider cards, those of its neighbours, and
        the name-table rows (events, landmarks) of the same English set."""
        texts = _card_texts()
        cards: dict[str, _Card] = {}
        by_letter: dict[str, list[str]] = {lt: [] for lt in sets}
        title_letter = {_set_title(s.title): lt for lt, s in sets.items()}
        english_sets: dict[str, Counter[str]] = {}

        def add(german: str, english: str) -> str:
            slug = slugify(english)
            if slug not in cards:
                pattern, anchors = _name_pattern(german)
                cards[slug] = _Card(german, english, pattern, _label_pattern(german),
                                    frozenset(_grams(texts.get(slug, ""))), anchors)
            return slug

        for dn in names.values():
            english = english_of.get(normalise(dn.german))
            letter = title_letter.get(dn.set)
            if not english or letter is None:
                continue
            by_letter[letter].append(add(dn.german, english))
            for r in known.get(normalise(dn.german), []):
                if r.set:
                    english_sets.setdefault(letter, Counter())[r.set] += 1
        for letter, votes in english_sets.items():
            home = votes.most_common(1)[0][0]
            have = {cards[s].english for s in by_letter[letter]}
            for rows in known.values():
                for r in rows:
                    if r.set == home and r.english not in have and "/" not in r.german:
                        by_letter[letter].append(add(r.german, r.english))
                        have.add(r.english)
        # A split pile's divider ('Sauna/Eisloch') is not a card of its own when both halves are:
        # its passages explain one half or the other, and only the halves have card pages.
        for letter in by_letter:
            by_letter[letter] = [s for s in by_letter[letter] if not _halves_known(cards, s)]
        letters = list(sets)
        pool = {}
        for i, letter in enumerate(letters):
            near = [letter] + letters[max(0, i - 1):i] + letters[i + 1:i + 2]
            pool[letter] = list(dict.fromkeys(s for lt in near for s in by_letter[lt]))
        return cls(cards, pool, by_letter)

    def attribute(self, letter: str, texts: list[str]) -> list[_Attribution]:
        """Attribute a set's passages, in printed order.

        Two passes: a passage whose two best cards are too close is decided
        again without the cards that a nearby passage explains better (the
        base set's Workshop and Feast passages read almost alike, but Feast's
        own passage is two paragraphs further on).
        """
        scored = [[] if _is_kingdom_list(text) else self._scores(letter, text) for text in texts]
        first = [_decide(sc, self.cards) for sc in scored]
        out: list[_Attribution] = []
        for i, (text, sc, att) in enumerate(zip(texts, scored, first)):
            if att.english is None and sc:
                mine = dict((slug, score) for score, slug in sc)
                taken = {slugify(o.english) for j, o in enumerate(first)
                         if o.english and j != i and abs(j - i) <= _NEARBY
                         and dict((sl, s) for s, sl in scored[j]).get(slugify(o.english), 0.0) > mine.get(slugify(o.english), 0.0)}
                att = _decide([(s, sl) for s, sl in sc if sl not in taken], self.cards)
            prev = out[-1] if out else None
            if att.english is None and prev is not None and prev.english and _CONTINUATION.match(text):
                att = _Attribution(prev.german, prev.english, _INHERITED_CONFIDENCE)
            out.append(self._pile_setup(letter, text) or att)
        return out

    def _pile_setup(self, letter: str, text: str) -> _Attribution | None:
        """A split pile's set-up ("Legt auf diese Karte 5 Felsen und oben darauf 5 Katapulte") is the
        pile's passage: the card on top names the pile (Catapult/Rocks), whichever half the wording favours."""
        m = _PILE_SETUP.match(text)
        if m is None:
            return None
        top = [self.cards[slug] for slug in self.pool.get(letter, []) if self.cards[slug].pattern.fullmatch(m.group(1))]
        if len(top) > 1:   # the card rather than the pile's divider row ('Sauna/Eisloch') that also matches
            top = [c for c in top if "/" not in c.german]
        if len(top) != 1:
            return None
        return _Attribution(top[0].german, top[0].english, _PILE_CONFIDENCE)

    def _scores(self, letter: str, text: str) -> list[tuple[float, str]]:
        """(score, card slug) for every candidate, best first."""
        grams = set(_grams(text))
        home = set(self.home.get(letter, []))
        scores = [(self._score(slug, text, grams) - (0.0 if slug in home else _NEIGHBOUR_PENALTY), slug)
                  for slug in self.pool.get(letter, [])]
        scores.sort(reverse=True)
        return scores

    def _score(self, slug: str, text: str, grams: set[tuple[str, str]]) -> float:
        """The passage's wording against the card's German explanation, its label and its name mentions."""
        card = self.cards[slug]
        # A heading or a half line shares a word pair with some card by chance.
        weight = min(1.0, len(grams) / _FULL_SENTENCE)
        score = weight * len(grams & card.grams) / len(grams) if grams else 0.0
        if card.labelled(text):
            score += _LABEL_SCORE
        mentions = [m for m in card.mentions(text)
                    if not _OTHER_SET_REF.match(text[m.end():]) and not _SET_NAME_BEFORE.search(text[:m.start()])]
        score += _MENTION_WEIGHT * min(len(mentions), 3)
        first = re.split(r"(?<=[.!?])\s", text, maxsplit=1)[0]
        if any(m.start() < len(first) for m in mentions):
            score += _FIRST_SENTENCE_BONUS
        return score

    def names_its_card(self, p: GermanPassage) -> bool:
        """The passage carries its card's label or names the card in its first sentence (the attribution
        to trust most: a later mention may be a cross-reference)."""
        card = self.cards.get(p.card or "")
        if card is None:
            return False
        first = re.split(r"(?<=[.!?])\s", p.text, maxsplit=1)[0]
        return card.labelled(p.text) or any(
            m.start() < len(first) and not _OTHER_SET_REF.match(p.text[m.end():]) for m in card.mentions(p.text))

    def card_names(self) -> dict[str, german_pages.CardName]:
        return {slug: german_pages.CardName(c.german, c.english) for slug, c in self.cards.items()
                if not _halves_known(self.cards, slug)}

    def page_score(self, p: GermanPassage, slug: str) -> float:
        """How well a passage fits a card of its page: wording as above, plus its amounts and the cards
        it names against the card's English text (``german_pages.fact_score``)."""
        facts = _english_facts().get(slug)
        extra = 0.0
        if facts is not None:
            extra = _FACT_WEIGHT * german_pages.fact_score(p.text, facts[0], facts[1])
        return self._score(slug, p.text, set(_grams(p.text))) + extra


def _halves_known(cards: dict[str, _Card], slug: str) -> bool:
    """A split pile's divider row ('Sauna/Eisloch') whose halves are cards of their own."""
    card = cards[slug]
    return "/" in card.german and all(slugify(h) in cards for h in card.english.split("/"))


def _is_kingdom_list(text: str) -> bool:
    """A recommended set of ten ("Prinz von Oranien (mit Seaside) Mission (Ereignis), Amulett, ..."):
    it names many cards and explains none."""
    items = [i.strip() for i in text.split(",")]
    return len(items) >= 6 and sum(len(i.split()) for i in items[1:]) <= 4 * (len(items) - 1)


def _decide(scores: list[tuple[float, str]], cards: dict[str, _Card]) -> _Attribution:
    """The best card when it is clearly ahead of the next; no card otherwise."""
    if not scores:
        return _Attribution(None, None, None)
    best, slug = scores[0]
    second = scores[1][0] if len(scores) > 1 else 0.0
    if best < _MIN_SCORE or best - second < _MIN_MARGIN:
        return _Attribution(None, None, None)
    card = cards[slug]
    return _Attribution(card.german, card.english, round(min(1.0, 0.5 + (best - second)), 2))


def _tokens(text: str) -> list[str]:
    text = re.sub(r"<[^>]+>", " ", text.lower())
    return [t for t in re.findall(r"[a-zäöüß]+|\d+", text) if t not in _STOP_TOKENS]


def _grams(text: str) -> list[tuple[str, str]]:
    """Word pairs: what two wordings of the same explanation share, and two explanations of different cards rarely do."""
    t = _tokens(text)
    return list(zip(t, t[1:]))


@lru_cache(maxsize=1)
def _card_texts() -> dict[str, str]:
    """English card slug -> domdiv's German explanation and card text ('' when domdiv is missing)."""
    try:
        import domdiv
    except ImportError:
        return {}
    base = Path(domdiv.__file__).parent / "card_db"
    with gzip.open(base / "de" / "cards_de.json.gz", "rt", encoding="utf-8") as fh:
        de = json.load(fh)
    with gzip.open(base / "en_us" / "cards_en_us.json.gz", "rt", encoding="utf-8") as fh:
        en = json.load(fh)
    out: dict[str, str] = {}
    for tag, entry in de.items():
        english = (en.get(tag) or {}).get("name")
        if isinstance(entry, dict) and english:
            out[slugify(english)] = f"{entry.get('extra') or ''} {entry.get('description') or ''}"
    return out


_UMLAUT = {"a": "[aä]", "o": "[oö]", "u": "[uü]", "ä": "[aä]", "ö": "[oö]", "ü": "[uü]"}
_NOUN_END = r"(?:e|en|er|ern|es|s|n|ns|r)?"
_ADJ_END = r"(?:e|em|en|er|es)?"


def _word_form(word: str, noun: bool) -> tuple[str, str]:
    """A regex for the inflected forms of one word of a name ('Dorf' -> 'Dörfer', 'Markt' -> 'Märkte'),
    and the literal start every form shares ('D', 'M')."""
    w = word
    if noun:
        w = re.sub(r"(e|en|er)$", "", w) if len(w) > 4 else w
        # the last vowel may take an umlaut in the plural
        m = re.search(r"[aouäöü](?=[^aeiouäöü]*$)", w)
        if m is None:
            return re.escape(w) + _NOUN_END, w
        return re.escape(w[:m.start()]) + _UMLAUT[w[m.start()]] + re.escape(w[m.end():]) + _NOUN_END, w[:m.start()]
    w = re.sub(r"(e|em|en|er|es)$", "", w)
    return re.escape(w) + _ADJ_END, w


def _name_pattern(german: str) -> tuple[re.Pattern[str], tuple[str, ...]]:
    """The name's pattern and the literal text one of which every match contains."""
    words = german.replace("/", " ").split()
    if "/" in german:   # a split pile: either half
        forms = [_word_form(w, True) for w in words]
        return (re.compile(r"(?<![\wäöüÄÖÜß])(?:" + "|".join(f for f, _ in forms) + r")(?![\wäöüß])"),
                tuple(a for _, a in forms))
    forms = [_word_form(w, i == len(words) - 1) for i, w in enumerate(words)]
    return (re.compile(r"(?<![\wäöüÄÖÜß])" + r"\s+".join(f for f, _ in forms) + r"(?![\wäöüß])"),
            (forms[0][1] if forms else "",))


def _label_pattern(german: str) -> re.Pattern[str]:
    """'Bankett:' or 'Handel (5):' at the start of the passage or after a page label."""
    return re.compile(r"(?:^|\s)" + re.escape(german) + r"(?:\s*\(\d+\))?:")


def _looks_like_names(text: str, known: set[str]) -> bool:
    return bool(re.fullmatch(r"[\wäöüÄÖÜß/' *+-]+", text)) and len(text) < 60 and any(
        normalise(w) in known for w in re.split(r"\d+[*+]?", text) if w.strip())


def _mentioned(text: str, set_names: list[str]) -> str:
    """The set's divider name that occurs earliest in the passage (German nouns inflect, so match the stem)."""
    best: tuple[int, str] | None = None
    low = text.lower()
    for name in set_names:
        stem = name.lower()[: max(4, len(name) - 2)] if len(name) > 5 else name.lower()
        pos = low.find(stem)
        if pos >= 0 and (best is None or pos < best[0]):
            best = (pos, name)
    return best[1] if best else ""


@lru_cache(maxsize=1)
def _english_facts() -> dict[str, tuple[str, list[str]]]:
    """Card slug -> (English card text, German names of the cards that text names), from dominion-setup."""
    facts = load_facts()
    german: dict[str, str] = {}
    for r in load_table():
        german.setdefault(slugify(r.english), r.german)
    names = sorted((f.name for f in facts.values() if len(f.name) > 3), key=len, reverse=True)
    pattern = re.compile(r"\b(" + "|".join(re.escape(n) for n in names) + r")s?\b")
    out: dict[str, tuple[str, list[str]]] = {}
    for slug, f in facts.items():
        named = {slugify(m.group(1)) for m in pattern.finditer(f.text)} - {slug}
        out[slug] = (f.text, [german[n] for n in sorted(named) if n in german and "/" not in german[n]])
    return out
