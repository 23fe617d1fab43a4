"""The scenario format and its replay: a small table in YAML, scripted steps and answers,
and the expectations a ruling states.

``replay`` loads and validates a file, builds the table, runs the steps and checks
the expectations; ``commands`` prints it for the CLI (``rulings replay`` and
``rulings coverage``); ``setup`` knows the Supply pile sizes of the Complete Rules.
The modules, one job each: ``source`` (YAML with line numbers), ``schema`` (the
format as one JSON Schema, composed with ``extensions``), ``cardnames``
("Copper*7", "Throne Room#first", the card bound), ``load`` (validation),
``checks`` (expectations), ``replay`` (build and run), ``reference`` (the docs'
table from the schema). The names below are the package's public face, so that
callers write ``scenario.load(path)`` and ``scenario.run(sc)``.

They are imported on first use (PEP 562): every card set imports
``scenario.extensions`` to register its steps and keys, and loading the engine
must not pay for YAML, jsonschema and the replay it may never run.
"""
from __future__ import annotations

import importlib
from typing import Any

_PUBLIC = {
    "replay": ("ENGINE_ERROR", "ILLEGAL_ACTION", "ILLEGAL_ANSWER", "NEED_ANSWER", "STEP_LIMIT", "UNUSED_ANSWERS",
               "Failure", "Replay", "Result", "Scenario", "Step", "StepResult", "build", "check", "load", "loads",
               "replay", "run", "snapshot"),
    "cardnames": ("UndefinedCard",),
    "schema": ("MAX_CARDS", "published_schema"),
}
_WHERE = {name: module for module, names in _PUBLIC.items() for name in names}
__all__ = sorted(_WHERE)


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    mod = importlib.import_module(f"{__name__}.{module}")
    # bind every public name of the module at once: importing submodule ``replay`` sets the package
    # attribute ``replay`` to the module, which would otherwise hide the function of that name
    for public in _PUBLIC[module]:
        globals()[public] = getattr(mod, public)
    return globals()[name]
