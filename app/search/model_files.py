"""Model files read back safely: the learned models committed beside the code (``ranker.json``,
``embedding-words.json``) and the document vectors ``rulings build`` writes next to the index.

A model file that is missing, oversized or not JSON must not stop search: the model's feature is then
0 for every candidate, and the caller logs once what is wrong with which file. A committed model carries
the digest of what it was learned from (``inputs_digest``), so a model older than its tables is logged at
load and caught by a test, never silently used as if current.
"""
from __future__ import annotations

import base64
import hashlib
import json
import sys
from array import array
from pathlib import Path
from typing import Any


class Unusable(ValueError):
    """A model file search cannot use; the message says why, for the log."""


def read_json(path: Path, max_bytes: int, what: str) -> Any:
    """The file's JSON, refused before parsing when it is larger than ``max_bytes``."""
    try:
        if path.stat().st_size > max_bytes:
            raise Unusable(f"larger than {max_bytes} bytes")
        return json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise Unusable(f"no {what} (an index built before it existed)") from None
    except (OSError, ValueError) as exc:
        raise Unusable(f"unreadable ({type(exc).__name__})") from None


def encode_floats(values: array) -> str:
    """float32 values as little-endian bytes in base64: a tenth of their JSON text."""
    if sys.byteorder != "little":
        values = array("f", values)
        values.byteswap()
    return base64.b64encode(values.tobytes()).decode("ascii")


def decode_floats(text: str) -> array:
    """What ``encode_floats`` wrote; ValueError for anything else (a number or null in its place too)."""
    if not isinstance(text, str):
        raise ValueError("not a string of floats")
    raw = base64.b64decode(text.encode("ascii"), validate=True)
    if len(raw) % 4:
        raise ValueError("not float32")
    values = array("f")
    values.frombytes(raw)
    if sys.byteorder != "little":
        values.byteswap()
    return values


QUESTION_TABLES = Path(__file__).resolve().parents[2] / "corpus" / "data" / "rule-questions"


def inputs_digest(paths: list[Path], skip: str | None = None) -> str:
    """sha256 over the files (and every ``*.csv`` of a directory, but those whose name starts with ``skip``), by
    name and content, in name order."""
    files: list[Path] = []
    for p in paths:
        files += sorted(f for f in p.glob("*.csv") if not (skip and f.name.startswith(skip))) if p.is_dir() else [p]
    h = hashlib.sha256()
    for f in sorted(files, key=lambda f: f.name):
        h.update(f.name.encode("utf-8") + b"\0" + f.read_bytes() + b"\0")
    return h.hexdigest()
