"""Text helpers shared by every consumer of the parsed model."""
from __future__ import annotations

import re

_LINK = re.compile(r"\[([^\]]*)\]\([^)]*\)")
_EMPH = re.compile(r"(\*\*|\*|__)")
_SPACES = re.compile(r"[ \t\u00a0]{2,}")


def plain(text: str) -> str:
    """Strip the documents' light markup for indexing and snippets.

    ``[X](#)`` -> ``X``; ``**`` and ``*`` emphasis removed; runs of spaces
    (left where an icon was lost in extraction) collapsed.
    """
    text = _LINK.sub(r"\1", text)
    text = _EMPH.sub("", text)
    text = _SPACES.sub(" ", text)
    return text.strip()
