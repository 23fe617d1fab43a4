"""Reading scenario text: YAML (or JSON) into dicts and lists that remember their line numbers.

Why a loader of our own rather than ``yaml.safe_load``: every complaint about a
scenario names the line, so mappings and lists keep the line of each key and
item. The loader is a ``SafeLoader`` (no tags, no objects) with three changes a
person writing a scenario expects:

* only ``true``/``false`` are booleans (YAML 1.2): an unquoted ``no`` in an
  answer list (``[trash, deck, no]``) stays the word "no" instead of turning
  into ``false``;
* a mapping key must be a plain value (a complex key ``? [a, b]`` is refused at
  its line), and a key given twice is refused instead of silently overwritten;
* a number longer than ``MAX_DIGITS`` digits is refused at its line before
  Python converts it (a 5,000-digit count would otherwise end in an internal error).

It parses with libyaml (PyYAML's C parser) when PyYAML was built with it: the
same nodes, marks and constructors, seven times faster, which matters because
every build, page listing and test suite reads all ~650 scenario files. The C
composer recurses on the C stack, where Python's recursion limit does not
reach (30,000 nested "- " end the process), so text that might nest deeper
than ``C_PARSER_DEPTH`` goes to the pure-Python parser, which stops at the
recursion limit with a clear error.
"""
from __future__ import annotations

import re
from typing import Any

import yaml
from yaml.constructor import ConstructorError

from app.engine.core.errors import ScenarioError

MAX_DIGITS = 15          # far above any count or seed a table needs; refused before int() sees it
C_PARSER_DEPTH = 500     # nesting the C parser is trusted with; a scenario needs about 6


class LDict(dict):
    """A mapping from the file: ``line`` of the mapping, ``key_lines`` of each key."""
    line: int = 0
    key_lines: dict


class LList(list):
    """A list from the file: ``line`` of the list, ``item_lines`` of each item."""
    line: int = 0
    item_lines: list


class _Loader(yaml.SafeLoader):
    pass


# YAML 1.2 booleans: drop the 1.1 resolver (yes/no/on/off/y/n) and add one for true/false only.
_Loader.yaml_implicit_resolvers = {
    ch: [(tag, rx) for tag, rx in resolvers if tag != "tag:yaml.org,2002:bool"]
    for ch, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
_Loader.add_implicit_resolver("tag:yaml.org,2002:bool", re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"),
                              list("tTfF"))


def _map(loader: _Loader, node: yaml.MappingNode) -> LDict:
    d = LDict()
    d.line = node.start_mark.line + 1
    d.key_lines = {}
    loader.flatten_mapping(node)           # merge keys (<<) as SafeLoader does
    for k_node, v_node in node.value:
        if not isinstance(k_node, yaml.ScalarNode):
            raise ConstructorError(None, None, "a key must be a plain word or number, not a list or mapping "
                                   "(a complex key `? ...`)", k_node.start_mark)
        k = loader.construct_object(k_node, deep=True)
        if k in d.key_lines:
            raise ConstructorError(None, None, f"key {k!r} is given twice in this mapping", k_node.start_mark)
        d[k] = loader.construct_object(v_node, deep=True)
        d.key_lines[k] = k_node.start_mark.line + 1
    return d


def _seq(loader: _Loader, node: yaml.SequenceNode) -> LList:
    lst = LList(loader.construct_object(n, deep=True) for n in node.value)
    lst.line = node.start_mark.line + 1
    lst.item_lines = [n.start_mark.line + 1 for n in node.value]
    return lst


def _int(loader: _Loader, node: yaml.ScalarNode) -> int:
    # every character counts (hex and octal digits, "_" separators): "0xfff..." with 5,000 digits is a
    # number no int() limit catches, and one that fails later when any error message shows it
    digits = len(node.value.strip().lstrip("+-"))
    if digits > MAX_DIGITS:
        raise ConstructorError(None, None, f"number with {digits} digits: at most {MAX_DIGITS} digits",
                               node.start_mark)
    return yaml.SafeLoader.construct_yaml_int(loader, node)


_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, _map)
_Loader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_SEQUENCE_TAG, _seq)
_Loader.add_constructor("tag:yaml.org,2002:int", _int)

_SURROGATE = re.compile("[\ud800-\udfff]")


def _str(loader: _Loader, node: yaml.ScalarNode) -> str:
    """A string; "\\ud83d\\ude00" (JSON's way to write one character outside the BMP, which YAML
    decodes as two halves) becomes that character, and a lone half is refused at its line:
    it is not text, and no page or error message could carry it."""
    value = loader.construct_scalar(node)
    if _SURROGATE.search(value):
        try:
            value = value.encode("utf-16", "surrogatepass").decode("utf-16")
        except UnicodeDecodeError:
            raise ConstructorError(None, None, 'a "\\u" escape names half of a character (a lone surrogate), '
                                   "which is not text", node.start_mark) from None
    return value


_Loader.add_constructor("tag:yaml.org,2002:str", _str)


if hasattr(yaml, "CSafeLoader"):           # PyYAML built with libyaml
    class _CLoader(yaml.CSafeLoader):
        """The same loader over libyaml's parser: our resolvers and constructors, C scanning and composing."""

    _CLoader.yaml_implicit_resolvers = _Loader.yaml_implicit_resolvers
    _CLoader.yaml_constructors = _Loader.yaml_constructors
else:
    _CLoader = None                        # type: ignore[assignment,misc]


_BRACKETS = re.compile(r"[\[\]{}]")


def _nesting_bound(text: str) -> int:
    """An upper bound on how deep the document nests, from the text alone.

    Flow collections nest by brackets; block collections by indentation (a child
    is indented further, or one level at the same indent for a list under a key)
    and by compact entries on one line ("- - x", "? a: b"). So: the deepest
    bracket nesting plus, over all lines, twice the indent plus the line's
    "-", ":" and "?" marks. Generous, never too small.
    """
    depth = deepest = 0
    for ch in _BRACKETS.findall(text):
        depth = depth + 1 if ch in "[{" else max(0, depth - 1)
        deepest = max(deepest, depth)
    block = max((2 * (len(ln) - len(ln.lstrip(" "))) + 2 + ln.count("-") + ln.count(":") + ln.count("?")
                 for ln in text.splitlines()), default=0)
    return deepest + block


def parse(text: str, name: str) -> Any:
    """The YAML (or JSON) document in ``text``; a ScenarioError naming ``name`` and the line when it does not parse."""
    if _CLoader is not None and _nesting_bound(text) <= C_PARSER_DEPTH:
        try:
            return yaml.load(text, Loader=_CLoader)  # noqa: S506 - a CSafeLoader subclass, no tags or objects
        except (yaml.YAMLError, RecursionError):
            pass    # the pure-Python parser says what is wrong in more words (it names the tab, the alias)
    try:
        doc = yaml.load(text, Loader=_Loader)  # noqa: S506 - _Loader is a SafeLoader subclass
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        problem = getattr(exc, "problem", None) or str(exc)
        raise ScenarioError(name, f"YAML error: {problem}", line=mark.line + 1 if mark else None) from None
    except RecursionError:
        raise ScenarioError(name, "scenario nested too deeply") from None
    return doc


def line_of(obj: Any, key: Any = None) -> int | None:
    """The line of ``obj[key]`` (a key of a mapping, an index of a list), else of ``obj`` itself."""
    if key is not None and isinstance(obj, LDict):
        return obj.key_lines.get(key, obj.line)
    if isinstance(obj, LList) and isinstance(key, int) and 0 <= key < len(obj.item_lines):
        return obj.item_lines[key]
    return getattr(obj, "line", None)


def line_at(root: Any, path: list) -> int | None:
    """The line of the value at ``path`` (keys and indexes from ``root``): the deepest one the file knows."""
    line = line_of(root)
    node = root
    for key in path:
        here = line_of(node, key)
        line = here or line
        try:
            node = node[key]
        except (KeyError, IndexError, TypeError):
            break
    return line


def plain(obj: Any) -> Any:
    """The same document as plain dicts and lists (for JSON and for the JSON Schema validator)."""
    if isinstance(obj, dict):
        return {k: plain(v) for k, v in obj.items()}
    if isinstance(obj, list):
        return [plain(v) for v in obj]
    return obj
