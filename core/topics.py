"""Suggested questions taken from the indexed documents (the Slack welcome's prompts).

For the documents in a folder scope, :func:`suggested_questions` picks up to ``limit`` documents —
the ones with the most chunks first, taking turns between top-level folders so one folder does not
fill every slot — and turns each into a question about its most frequent section heading ("What does
<document> say about <section>?"; "What does <document> cover?" when it has no headings). Names come
from file names (``travel_expenses-2025.pdf`` → "Travel expenses 2025"), never from a fixed list, so
the prompts always name what is really indexed.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath

from core.retrieval import scope_paths
from core.store import Store

MAX_TITLE_CHARS = 40
"""Longest prompt title (a button-sized label)."""
_SEPARATORS = re.compile(r"[_\-.\s]+")
_NUMBERING = re.compile(r"^\s*(?:\d+(?:\.\d+)*|[IVXLC]+|[A-Z])[.)]?\s+")


@dataclass(frozen=True)
class Suggestion:
    """One suggested question: a short ``title``, the ``question`` sent when clicked, its source."""

    title: str
    question: str
    path: str


def document_name(path: str) -> str:
    """A readable name from a file path: stem, separators to spaces, first letter upper-case."""
    words = _SEPARATORS.sub(" ", PurePosixPath(path).stem).strip()
    return words[:1].upper() + words[1:] if words else path


def _top_section(sections: Counter[str]) -> str:
    for name, _ in sections.most_common():
        clean = _NUMBERING.sub("", name.split(">")[-1]).strip()
        if clean:
            return clean
    return ""


def _short(text: str, limit: int = MAX_TITLE_CHARS) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def suggestion_for(path: str, sections: Counter[str]) -> Suggestion:
    """The :class:`Suggestion` of one document given its section headings (with chunk counts)."""
    name, section = document_name(path), _top_section(sections)
    if section:
        return Suggestion(_short(section), f"What does {name} say about {section.lower()}?", path)
    return Suggestion(_short(name), f"What does {name} cover?", path)


def pick_documents(counts: Counter[str], limit: int) -> list[str]:
    """Up to ``limit`` paths: most chunks first, taking turns between top-level folders."""
    by_folder: dict[str, list[str]] = defaultdict(list)
    for path, _ in sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])):
        by_folder[path.split("/", 1)[0] if "/" in path else ""].append(path)
    queues = sorted(by_folder.values(), key=lambda q: (-counts[q[0]], q[0]))
    picked: list[str] = []
    while len(picked) < limit and any(queues):
        for q in queues:
            if q and len(picked) < limit:
                picked.append(q.pop(0))
    return picked


def suggested_questions(store: Store, scope: Sequence[str], limit: int = 4) -> list[Suggestion]:
    """Up to ``limit`` questions about the indexed documents inside ``scope`` (empty when none).

    Reads the documents table and the ``path``/``section`` columns of the chunks table.
    """
    indexed = [p for p, d in store.documents().items() if d.status == "indexed"]
    allowed = scope_paths(indexed, scope)
    sections: dict[str, Counter[str]] = defaultdict(Counter)
    for row in store.chunk_rows(columns=["path", "section"]):
        if row["path"] in allowed:
            sections[row["path"]][str(row["section"] or "")] += 1
    counts = Counter({p: sum(c.values()) for p, c in sections.items()})
    return [suggestion_for(p, sections[p]) for p in pick_documents(counts, limit)]
