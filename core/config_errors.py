"""Plain-words messages for a config file that does not load: pydantic validation errors and duplicate
YAML keys.

:func:`describe_validation` turns each pydantic error into one line naming the file, the dotted key
path, what is wrong and what is allowed (``config.yaml: answer.min_answerability must be between 0 and
1 (got 3)``), taking the allowed range from the field's own constraints (``Field(ge=..., le=...)``) so
the message never drifts from the model. :func:`check_unique_keys` refuses a mapping that holds a key
twice (YAML 1.2 §3.2.1.1 requires unique keys; PyYAML silently keeps the last one).
"""

from __future__ import annotations

import difflib
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any, get_args

import yaml
from pydantic import BaseModel, ValidationError
from pydantic.fields import FieldInfo

from core.errors import ConfigError

SHAPE_ERRORS = frozenset({"model_type", "dict_type", "model_attributes_type"})
"""pydantic error types of a section (or mapping key) given as something other than a mapping."""
BOUND_ERRORS = frozenset({"greater_than", "greater_than_equal", "less_than", "less_than_equal"})
TYPE_TEXT = {
    "int_parsing": "must be a whole number", "int_type": "must be a whole number",
    "int_from_float": "must be a whole number", "float_parsing": "must be a number",
    "float_type": "must be a number", "finite_number": "must be a finite number (not .inf or .nan)",
    "bool_parsing": "must be true or false", "bool_type": "must be true or false",
    "string_type": "must be text (put it in quotes)", "tuple_type": "must be a list, e.g. [a, b]",
    "list_type": "must be a list, e.g. [a, b]", "path_type": "must be a path",
    "missing": "is required; add it",
}
"""What a value of the wrong type must be, by pydantic error type
(https://docs.pydantic.dev/latest/errors/validation_errors/)."""


def describe_validation(exc: ValidationError, where: str, model: type[BaseModel]) -> str:
    """One line per error of ``exc`` (raised validating ``model`` from the file named ``where``):
    ``WHERE: KEY.PATH what is wrong (got VALUE)``, newline-separated."""
    return "\n".join(_line(err, where, model) for err in exc.errors())


def _line(err: Any, where: str, model: type[BaseModel]) -> str:
    loc: tuple[str | int, ...] = tuple(err["loc"])
    key = key_path(loc) or "(top level)"
    kind = err["type"]
    if kind == "extra_forbidden":
        hint = _suggestion(loc, model)
        return f"{where}: unknown key '{key}'{hint}; remove it or check its spelling (see config.yaml)"
    if kind in SHAPE_ERRORS:
        name = key.rsplit(".", 1)[-1]
        return (f"{where}: section '{key}' must be a mapping of settings (indented 'name: value' lines "
                f"under '{name}:'), not {_kind(err.get('input'))}; see config.yaml")
    problem = _problem(err, loc, model)
    return f"{where}: {key}{'' if problem.startswith(':') else ' '}{problem}{_got(err.get('input'))}"


def _problem(err: Any, loc: tuple[str | int, ...], model: type[BaseModel]) -> str:
    kind = err["type"]
    ctx = err.get("ctx") or {}
    if kind in BOUND_ERRORS:
        field = field_at(model, loc)
        return bounds_text(field) if field is not None else str(err["msg"]).lower()
    if kind == "literal_error":
        return f"must be {ctx.get('expected', '')}"
    if kind in ("value_error", "assertion_error") and "error" in ctx:
        return f": {ctx['error']}"  # the validator's own message says what is allowed
    return TYPE_TEXT.get(kind, f": {err['msg']}")


def bounds_text(field: FieldInfo) -> str:
    """``must be between 0 and 1`` from a field's ``ge``/``gt``/``le``/``lt`` constraints."""
    low = high = ""
    for m in field.metadata:
        for attr, text in (("ge", "at least {}"), ("gt", "greater than {}"),
                           ("le", "at most {}"), ("lt", "less than {}")):
            value = getattr(m, attr, None)
            if value is None:
                continue
            if attr in ("ge", "gt"):
                low = text.format(_number(value))
            else:
                high = text.format(_number(value))
    if low.startswith("at least") and high.startswith("at most"):
        return f"must be between {low[9:]} and {high[8:]}"
    return "must be " + " and ".join(t for t in (low, high) if t)


def field_at(model: type[BaseModel], loc: Sequence[str | int]) -> FieldInfo | None:
    """The pydantic field a validation error's ``loc`` points at (through nested sections and lists
    of sections), or None when ``loc`` leaves the models (a mapping's key, a list item)."""
    current: type[BaseModel] | None = model
    found: FieldInfo | None = None
    for part in loc:
        if isinstance(part, int):
            continue  # an item of a list of sections: the item type is the section
        if current is None or part not in current.model_fields:
            return None
        found = current.model_fields[part]
        current = _section_type(found.annotation)
    return found


def _section_type(annotation: Any) -> type[BaseModel] | None:
    for t in (annotation, *_walk_args(annotation)):
        if isinstance(t, type) and issubclass(t, BaseModel):
            return t
    return None


def _walk_args(annotation: Any) -> Iterator[Any]:
    for arg in get_args(annotation):
        yield arg
        yield from _walk_args(arg)


def _suggestion(loc: tuple[str | int, ...], model: type[BaseModel]) -> str:
    parent = field_at(model, loc[:-1]) if len(loc) > 1 else None
    section = _section_type(parent.annotation) if parent is not None else model if len(loc) == 1 else None
    if section is None or not isinstance(loc[-1], str):
        return ""
    close = difflib.get_close_matches(loc[-1], [k for k in section.model_fields if k != "config_path"], n=1)
    return f" (did you mean '{close[0]}'?)" if close else ""


def key_path(loc: Sequence[str | int]) -> str:
    """``llm.providers[0].kind`` from a pydantic ``loc``."""
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out


def _number(value: object) -> str:
    return f"{value:g}" if isinstance(value, float) else str(value)


def _got(value: object) -> str:
    if isinstance(value, dict | list | tuple):
        return ""
    if value is None or isinstance(value, bool):
        return " (got nothing)" if value is None else f" (got {str(value).lower()})"
    return f" (got {value!r})" if isinstance(value, str) else f" (got {_number(value)})"


def _kind(value: object) -> str:
    if isinstance(value, list | tuple):
        return "a list"
    if isinstance(value, str):
        return f"the text {value!r}"
    return "nothing" if value is None else f"the value {value!r}"


# ---- duplicate keys ------------------------------------------------------------------------------------
def check_unique_keys(text: str, path: Path) -> None:
    """Refuse YAML ``text`` (the file ``path``) in which one mapping holds a key twice.

    Raises:
        ConfigError: ``FILE:LINE: key 'a.b' appears twice (first on line N)``, 1-based lines.
        yaml.YAMLError: the text is not YAML (the caller reports it with its position).
    """
    root = yaml.compose(text, Loader=yaml.SafeLoader)
    if root is not None:
        _check_node(root, (), path)


def _check_node(node: yaml.Node, prefix: tuple[str, ...], path: Path) -> None:
    if isinstance(node, yaml.SequenceNode):
        for item in node.value:
            _check_node(item, prefix, path)
        return
    if not isinstance(node, yaml.MappingNode):
        return
    seen: dict[str, int] = {}
    for key_node, value_node in node.value:
        key = str(key_node.value) if isinstance(key_node, yaml.ScalarNode) else ""
        if not key or key_node.tag == "tag:yaml.org,2002:merge":
            continue
        line = key_node.start_mark.line + 1
        dotted = ".".join((*prefix, key))
        if key in seen:
            raise ConfigError(f"{path}:{line}: key '{dotted}' appears twice (first on line {seen[key]}); "
                              "keep one of them (YAML would silently use the last)")
        seen[key] = line
        _check_node(value_node, (*prefix, key), path)
