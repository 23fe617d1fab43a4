"""Reading source documents with line numbers, and the error every parser raises.

Every parser works on a ``SourceDoc`` so that a structural problem can always
be reported as ``file:line: what was expected``.
"""
from __future__ import annotations

import csv
import hashlib
import io
from dataclasses import dataclass, field
from pathlib import Path

from app import config


class CorpusError(Exception):
    """A document is missing, unreadable or no longer has the expected structure."""

    def __init__(self, path: Path | str, line: int | None, message: str):
        self.path = str(path)
        self.line = line
        self.message = message
        where = f"{self.path}:{line}" if line else self.path
        super().__init__(f"{where}: {message}")


@dataclass
class SourceDoc:
    """A document's text split into lines; ``line_no`` is 1-based like editors show."""

    role: str
    path: Path
    lines: list[str] = field(repr=False)

    @property
    def name(self) -> str:
        return self.path.name

    def line(self, line_no: int) -> str:
        return self.lines[line_no - 1]

    def error(self, line_no: int | None, message: str) -> CorpusError:
        return CorpusError(self.path, line_no, message)

    def find(self, text: str, start: int = 1, exact: bool = True) -> int:
        """1-based number of the first line equal to (or starting with) ``text``."""
        for i in range(start - 1, len(self.lines)):
            line = self.lines[i].rstrip()
            if (line == text) if exact else line.startswith(text):
                return i + 1
        raise self.error(None, f"expected a line {'equal to' if exact else 'starting with'} {text!r}, found none")


def read_csv_table(path: Path, header: list[str], max_bytes: int) -> list[tuple[int, list[str]]]:
    """(line, cells) of each non-blank row of a table the team maintains under corpus/data.

    Its size is checked before it is read; it must be UTF-8 with exactly ``header`` first; a quote
    left open or any other CSV fault is refused at its line (``strict``, so nothing is guessed).
    """
    size = path.stat().st_size
    if size > max_bytes:
        raise CorpusError(path, None, f"table is {size} bytes, at most {max_bytes}")
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise CorpusError(path, None, f"not UTF-8 (byte {exc.start})") from None
    reader = csv.reader(io.StringIO(text, newline=""), strict=True)
    rows: list[tuple[int, list[str]]] = []
    try:
        found = next(reader, None)
        if found != header:
            raise CorpusError(path, 1, f"expected the header {','.join(header)!r}, found {found!r}")
        for row in reader:
            if row and "".join(row).strip():
                rows.append((reader.line_num, row))
    except csv.Error as exc:
        raise CorpusError(path, reader.line_num, f"not valid CSV: {exc}") from None
    return rows


def text_cell(path: Path, line: int, cell: str, name: str, shortest: int, longest: int) -> str:
    """A table cell that must be one line of plain text of bounded length, with its spaces normalised."""
    if "\n" in cell or "\r" in cell:
        raise CorpusError(path, line, f"{name}: spans several lines (a quote left open?)")
    if any(ord(c) < 32 for c in cell if c != "\t"):
        raise CorpusError(path, line, f"{name}: contains a control character")
    text = " ".join(cell.split())
    if not shortest <= len(text) <= longest:
        raise CorpusError(path, line, f"{name}: {shortest}-{longest} characters, found {len(text)}")
    return text


def load_document(role: str, corpus: Path | None = None) -> SourceDoc:
    corpus = corpus or config.corpus_dir()
    path = corpus / config.DOCUMENTS[role]
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise CorpusError(path, None, f"corpus document for '{role}' is missing") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise CorpusError(path, None, f"corpus document for '{role}' is unreadable: {exc}") from None
    return SourceDoc(role=role, path=path, lines=text.split("\n"))


def corpus_fingerprint(corpus: Path | None = None) -> str:
    """Hash of every input that affects the build: documents, data files, scenarios."""
    corpus = corpus or config.corpus_dir()
    h = hashlib.sha256()
    for path in sorted(p for p in corpus.rglob("*") if p.is_file()):
        h.update(str(path.relative_to(corpus)).encode())
        h.update(path.read_bytes())
    return h.hexdigest()[:16]
