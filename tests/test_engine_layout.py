"""The engine's folders are its architecture (app/engine/__init__.py), and imports keep it so.

- ``core/`` names no mechanism, no set and not the scenario format: a mechanism registers what it
  adds (``core.hooks``, ``scenario.extensions``) and the core calls what is registered (issue #32).
- a set's file in ``cards/`` imports the core's vocabulary and mechanisms, never another set's file.
- a mechanism never imports a set's file (sets use mechanisms, not the other way round).

Every import statement counts, including those inside functions: a lazy import is still a dependency.
"""
from __future__ import annotations

import ast
from pathlib import Path

ENGINE = Path(__file__).resolve().parent.parent / "app" / "engine"


def imported_modules(path: Path) -> set[str]:
    """Every module an ``import`` / ``from ... import`` in the file names (``from a import b`` gives a and a.b)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path.name}: relative import (write the absolute module name)"
            found.add(node.module or "")
            found.update(f"{node.module}.{a.name}" for a in node.names)
    return found


def layout_violations(engine: Path) -> list[str]:
    """What breaks the layout in the engine folder ``engine``, one line per offending import."""
    bad: list[str] = []
    for folder, forbidden in (("core", ("mechanisms", "cards", "scenario")), ("mechanisms", ("cards",))):
        for path in sorted((engine / folder).glob("*.py")):
            for mod in sorted(imported_modules(path)):
                for name in forbidden:
                    if mod == f"app.engine.{name}" or mod.startswith(f"app.engine.{name}."):
                        bad.append(f"{folder}/{path.name} imports {mod}")
    for path in sorted((engine / "cards").glob("*.py")):
        if path.name == "__init__.py":
            continue
        for mod in sorted(imported_modules(path)):
            if mod == "app.engine.cards" or mod.startswith("app.engine.cards."):
                bad.append(f"cards/{path.name} imports {mod} (another set's file)")
    return bad


def test_the_core_names_no_mechanism_set_or_scenario_and_no_set_imports_another():
    assert layout_violations(ENGINE) == []


def test_the_check_sees_a_lazy_import_and_a_cross_set_import(tmp_path):
    """The check itself: the two kinds of import the layout forbids (the kinds issue #32 found) are reported."""
    for folder in ("core", "mechanisms", "cards"):
        (tmp_path / folder).mkdir()
    (tmp_path / "core" / "activities.py").write_text(
        "def buy():\n    from app.engine.mechanisms.potions import pay\n    return pay\n")
    (tmp_path / "cards" / "dark_ages.py").write_text("from app.engine.cards.hinterlands import lower_cost\n")
    (tmp_path / "cards" / "__init__.py").write_text("from app.engine.cards import dark_ages\n")
    (tmp_path / "mechanisms" / "ok.py").write_text("from app.engine.core import hooks\n")
    assert layout_violations(tmp_path) == [
        "core/activities.py imports app.engine.mechanisms.potions",
        "core/activities.py imports app.engine.mechanisms.potions.pay",
        "cards/dark_ages.py imports app.engine.cards.hinterlands (another set's file)",
        "cards/dark_ages.py imports app.engine.cards.hinterlands.lower_cost (another set's file)",
    ]
