"""Executable card definitions and an engine that replays small scenarios step by step.

The engine follows the timing rules of the Complete Rules (chapters II-V) and
the symbolic card language; card definitions live in ``app.engine.cards`` and
are composed from the shared vocabulary in ``app.engine.effects``.
"""
