"""A fresh install gets every package the code imports: each third-party import in
``app/``, ``tests/`` and ``bench/`` belongs to a distribution ``pyproject.toml`` declares.

A test run on a machine with leftovers would pass without this check; a new user's
virtualenv would not (the missing ``jsonschema`` was found that way).
"""
from __future__ import annotations

import ast
import re
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _declared() -> set[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    specs = list(project["dependencies"])
    for extra in project.get("optional-dependencies", {}).values():
        specs.extend(extra)
    return {re.split(r"[<>=!~\[; ]", s, maxsplit=1)[0].lower().replace("_", "-") for s in specs}


def _imported_top_level() -> dict[str, Path]:
    found: dict[str, Path] = {}
    for folder in ("app", "tests", "bench", "tools"):
        for path in (ROOT / folder).rglob("*.py"):
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            for node in ast.walk(tree):
                if isinstance(node, ast.Import):
                    names = [a.name for a in node.names]
                elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                    names = [node.module]
                else:
                    continue
                for name in names:
                    found.setdefault(name.split(".")[0], path)
    return found


def test_every_third_party_import_is_declared():
    declared = _declared()
    owners = packages_distributions()
    local = ({"app", "tests", "bench", "conftest"} | {p.stem for p in (ROOT / "tests").glob("*.py")}
             | {p.stem for p in (ROOT / "bench").glob("*.py")})     # bench scripts import their neighbours
    missing = []
    for module, where in sorted(_imported_top_level().items()):
        if module in sys.stdlib_module_names or module in local:
            continue
        dists = {d.lower().replace("_", "-") for d in owners.get(module, [])}
        if not dists:
            # not installed here: fine only for a declared extra the test install leaves out, whose
            # distribution is named like the module
            if module.lower().replace("_", "-") not in declared:
                missing.append(f"{module} (imported in {where.relative_to(ROOT)}) is neither installed nor "
                               "declared in pyproject.toml")
        elif not dists & declared:
            missing.append(f"{module} (imported in {where.relative_to(ROOT)}) comes from {sorted(dists)}, "
                           "which pyproject.toml does not declare")
    assert not missing, "\n".join(missing)


def test_the_known_break_stays_bounded():
    """pytest 9.2 breaks schemathesis' plugin (see the comment in pyproject.toml)."""
    test_extra = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["test"]
    pytest_spec = next(s for s in test_extra if s.startswith("pytest"))
    assert "<9.2" in pytest_spec
