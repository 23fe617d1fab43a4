"""The models ``rulings build`` writes next to the index (translation.py, embedding.py, general.py), read back safely.

A model file that is missing, oversized or not JSON must not stop search: the model's feature is then
0 for every candidate, and the caller logs once what is wrong with which file. All of them read their
files the same way, here; the two that store vectors (embedding.py, general.py) share one codec.
"""
from __future__ import annotations

import base64
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
