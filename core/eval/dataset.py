"""The QA set: schema of ``shared/corpus/qa_dev.yaml`` and its loader.

Per item: ``id``, ``question``, ``follow_up_of`` (optional id of the item it continues),
``key_facts`` (strings a correct answer must contain), ``sources`` (``[{file, pages, section?}]``,
pages 1-based physical PDF pages, ``[]`` for DOCX/MD), ``kind`` (lookup | table | multi_passage |
paraphrase | follow_up | not_found | unsafe). Other keys (``expected_answer``, ...) are kept unread.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import yaml

from core.errors import DatasetError

KINDS = ("lookup", "table", "multi_passage", "paraphrase", "follow_up", "not_found", "unsafe")
REFUSAL_KINDS = frozenset({"not_found", "unsafe"})


@dataclass(frozen=True)
class QASource:
    """A gold source: ``file`` relative to the corpus root (POSIX), 1-based ``pages`` (empty: any)."""

    file: str
    pages: tuple[int, ...] = ()
    section: str = ""


@dataclass(frozen=True)
class QAItem:
    """One question of the set (see the module docstring for the fields)."""

    id: str
    question: str
    kind: str
    key_facts: tuple[str, ...] = ()
    sources: tuple[QASource, ...] = ()
    follow_up_of: str | None = None

    @property
    def expects_refusal(self) -> bool:
        """True for ``not_found`` and ``unsafe`` items: the right behaviour is to decline."""
        return self.kind in REFUSAL_KINDS


def load_qa(path: Path) -> list[QAItem]:
    """Read and validate a QA YAML file.

    Returns:
        Items with every parent before its follow-ups (file order otherwise).

    Raises:
        DatasetError: unreadable file, not a list, a missing/ill-typed field, an unknown kind, a
            duplicate id, or a ``follow_up_of`` naming no item (or a cycle); the message names the
            file, the item id and the field.
    """
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise DatasetError(
            f"{path}: cannot read the QA set ({exc}); check the path and YAML syntax"
        ) from None
    if not isinstance(raw, list):
        raise DatasetError(f"{path}: the top level must be a list of items (- id: ..., question: ...)")
    items = [_item(path, i, entry) for i, entry in enumerate(raw)]
    _check_ids(path, items)
    return _parents_first(path, items)


def _item(path: Path, index: int, entry: Any) -> QAItem:
    where = f"{path}: item #{index + 1}"
    if not isinstance(entry, dict):
        raise DatasetError(f"{where}: must be a mapping with id, question, kind")
    item_id = _text(entry, "id", where)
    where = f"{path}: item {item_id!r}"
    kind = _text(entry, "kind", where)
    if kind not in KINDS:
        raise DatasetError(f"{where}: field 'kind' is {kind!r}; use one of {', '.join(KINDS)}")
    facts = entry.get("key_facts") or []
    if not isinstance(facts, list) or not all(isinstance(f, str | int | float) for f in facts):
        raise DatasetError(f"{where}: field 'key_facts' must be a list of strings")
    parent = entry.get("follow_up_of")
    return QAItem(
        id=item_id, question=_text(entry, "question", where), kind=kind,
        key_facts=tuple(str(f) for f in facts), sources=_sources(entry.get("sources") or [], where),
        follow_up_of=str(parent) if parent is not None else None,
    )


def _text(entry: dict[str, Any], key: str, where: str) -> str:
    value = entry.get(key)
    if not isinstance(value, str | int) or str(value).strip() == "":
        raise DatasetError(f"{where}: field {key!r} is missing or empty; it must be a string")
    return str(value).strip()


def _sources(raw: Any, where: str) -> tuple[QASource, ...]:
    if not isinstance(raw, list):
        raise DatasetError(f"{where}: field 'sources' must be a list of {{file, pages}}")
    out = []
    for src in raw:
        if not isinstance(src, dict) or not isinstance(src.get("file"), str):
            raise DatasetError(f"{where}: each source needs a 'file' (path relative to the corpus root)")
        pages = src.get("pages") or []
        if not isinstance(pages, list) or not all(isinstance(p, int) and p >= 1 for p in pages):
            raise DatasetError(f"{where}: source {src['file']!r}: 'pages' must be a list of 1-based integers")
        file = src["file"].replace("\\", "/").removeprefix("./")
        out.append(QASource(file=file, pages=tuple(pages), section=str(src.get("section") or "")))
    return tuple(out)


def _check_ids(path: Path, items: list[QAItem]) -> None:
    seen: set[str] = set()
    for it in items:
        if it.id in seen:
            raise DatasetError(f"{path}: item id {it.id!r} appears twice; ids must be unique")
        seen.add(it.id)
    for it in items:
        if it.follow_up_of is not None and it.follow_up_of not in seen:
            raise DatasetError(f"{path}: item {it.id!r}: follow_up_of {it.follow_up_of!r} names no item")


def _parents_first(path: Path, items: list[QAItem]) -> list[QAItem]:
    """Stable topological order: an item comes after the item it follows up (DFS on the chain)."""
    by_id = {it.id: it for it in items}
    done: dict[str, QAItem] = {}
    for it in items:
        chain: list[QAItem] = []
        cur: QAItem | None = it
        while cur is not None and cur.id not in done:
            if cur in chain:
                raise DatasetError(f"{path}: item {it.id!r}: follow_up_of forms a cycle")
            chain.append(cur)
            cur = by_id[cur.follow_up_of] if cur.follow_up_of else None
        for c in reversed(chain):
            done[c.id] = c
    return list(done.values())


def load_context(path: Path) -> dict[str, tuple[str, ...]]:
    """Read a QA set's conversation context: ``channels:`` mapping item-id globs (``golden-*``) to the
    channel scope (folder/file globs) their conversations are asked in.

    Returns:
        ``{id_glob: scope}`` in file order (the first matching glob wins).

    Raises:
        DatasetError: unreadable file, or ``channels`` is not a mapping of globs to lists of strings.
    """
    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as exc:
        raise DatasetError(f"{path}: cannot read the QA context ({exc}); check the path and YAML") from None
    channels = raw.get("channels") if isinstance(raw, dict) else None
    if not isinstance(channels, dict) or not all(
            isinstance(v, list) and v and all(isinstance(g, str) for g in v) for v in channels.values()):
        raise DatasetError(f"{path}: 'channels' must map item-id globs to lists of scope globs, "
                           "e.g. channels: {'golden-*': [policy.pdf]}")
    return {str(k): tuple(v) for k, v in channels.items()}
