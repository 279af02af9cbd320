"""Document scoping for retrieval: when a question names a policy, search only that document.

Wraps :mod:`core.query.doc_scope` (name catalog from each document's first chunks, detection, and
``restrict`` so a name never widens a channel's scope). The catalog is built once per version of the
documents table (one cheap version check per question) and rebuilt only when the set of indexed
documents (path + sha256) changed, so the watcher's updates are picked up on the next question.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

from core.query.doc_scope import (
    MAX_DOCS_PER_NAME,
    TITLE_CHUNKS,
    DocumentCatalog,
    build_catalogs,
    detect_scope,
    matched_names,
    restrict,
    titles_from_chunk_rows,
    unknown_names,
)
from core.query.text import fold
from core.store import Store, sql_str

log = logging.getLogger(__name__)


class DocumentScoper:
    """Narrows a scope to the documents a question names.

    Args:
        store: the index; title texts are each document's stored title (``documents.title``: its
            confirmed metadata title, front matter and running header) and its first chunks.
    """

    def __init__(self, store: Store) -> None:
        self.store = store
        self._key: frozenset[tuple[str, str]] = frozenset()
        self._version: tuple[str, int, int] | None = None
        self._catalog: DocumentCatalog | None = None
        self._families: DocumentCatalog | None = None

    def narrow(self, question: str, scope: Sequence[str], allowed: Sequence[str],
               union: bool = False) -> list[str]:
        """The named documents among ``allowed`` (indexed paths inside ``scope``), or ``scope`` unchanged
        when the question names none of them; ``union`` for a comparison (see
        :func:`~core.query.doc_scope.detect_scope`), where a product name the catalog does not know
        is also looked up in the chunk texts (:meth:`phrase_documents`)."""
        catalog = self.catalog()
        detected = detect_scope(question, catalog, union=union)
        if union:
            known = {t for v in matched_names(question, catalog) for t in v}
            extra = [p for name in unknown_names(question, known) for p in self.phrase_documents(name)]
            detected = sorted(set(detected or ()) | set(extra)) or None
        return restrict(scope, detected, allowed)

    def phrase_documents(self, name: str, max_docs: int = MAX_DOCS_PER_NAME) -> list[str]:
        """The documents whose chunk text contains ``name`` (case-insensitive, one filtered scan), or
        ``[]`` when more than ``max_docs`` do (then it names a family, not a document). For a name
        that only a running header carries (dropped by extraction) or that sits deep in the text."""
        pattern = "%" + name.lower().replace("\\", "").replace("%", "").replace("_", "") + "%"
        rows = self.store.chunk_rows(where=f"lower(text) LIKE {sql_str(pattern)}", columns=["path"])
        paths = sorted({r["path"] for r in rows})
        return paths if len(paths) <= max_docs else []

    def name_words(self, question: str, allowed: Sequence[str]) -> set[str]:
        """Folded words of the document names in ``question`` that name a document in ``allowed``.

        Once retrieval is confined to the named document, its name only matches headers and title
        pages, so the keyword leg drops these words."""
        catalog = self.catalog()
        matched = matched_names(question, catalog)
        if not matched:
            return set()
        permitted = set(allowed)
        return {t for v in matched if permitted & set(catalog.names[v]) for t in v}

    def named_paths(self, question: str) -> set[str] | None:
        """Every indexed document that a name in ``question`` covers, company and family names
        included ("Acme Corp" covers every Acme document), or ``None`` when the question
        names none. Never narrows retrieval; the answerer uses it to notice an answer taken from a
        document the question did not name (``scores["named_doc"]``)."""
        self.catalog()
        families = self._families
        paths = detect_scope(question, families) if families is not None else None
        return set(paths) if paths else None

    @staticmethod
    def strip(tokens: Sequence[str], words: set[str]) -> list[str]:
        """``tokens`` without those whose plural fold is in ``words``."""
        return [t for t in tokens if fold(t) not in words]

    def catalog(self) -> DocumentCatalog:
        """The name catalog of the indexed documents (cached per documents-table version; rebuilt when
        a document changed)."""
        version = self.store.documents_version()
        if self._catalog is not None and version == self._version:
            return self._catalog
        docs = self.store.documents()
        key = frozenset((p, d.sha256) for p, d in docs.items() if d.status == "indexed")
        if self._catalog is None or key != self._key:
            rows = self.store.chunk_rows(where=f"ordinal < {TITLE_CHUNKS}",
                                         columns=["path", "ordinal", "text"])
            stored = {p: d.title for p, d in docs.items() if d.title}
            titles = [(p, "\n".join(t for t in (stored.get(p, ""), text) if t))
                      for p, text in titles_from_chunk_rows(rows)]
            self._catalog, self._families = build_catalogs(titles, (MAX_DOCS_PER_NAME, max(1, len(titles))))
            self._key = key
        self._version = version
        return self._catalog
