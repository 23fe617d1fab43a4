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
"""
from app.engine.scenario.replay import (ENGINE_ERROR, ILLEGAL_ACTION, ILLEGAL_ANSWER, NEED_ANSWER,  # noqa: F401
                                        STEP_LIMIT, UNUSED_ANSWERS, Failure, Replay, Result, Scenario, Step,
                                        StepResult, build, check, load, loads, replay, run, snapshot)
from app.engine.scenario.cardnames import UndefinedCard  # noqa: F401
from app.engine.scenario.schema import MAX_CARDS, published_schema  # noqa: F401
