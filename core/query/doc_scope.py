"""Document-scope detection: which indexed documents does a question name?

"Under Sunrise Health, …" should search only ``sunrise_health.pdf``; "Globex Golden
Shield" only ``insurance/GLXHLIP01V0001.pdf``; a question that names no policy stays
corpus-wide. Data flow:

``(path, title_text)`` pairs (title text = the first chunks of each document, see
:func:`titles_from_chunk_rows`) → :func:`build_catalog` (name variants per path, :mod:`core.query.names`;
a variant also covers every document whose title text mentions it, so "Initech Health Plus" covers
the plan's booklet *and* the benefits overview that compares it) → :func:`detect_scope` (the
variants found in the question as contiguous token runs → their paths).

Safeguards against false scoping: generic words never name a document
(:data:`~core.query.text.GENERIC_WORDS`); a variant covering more than ``max_docs`` documents is a
company or family name, not a document name, and is dropped ("Acme Corp"); when the
question matches several variants, the documents they share win (intersection), and only when
they share none (a comparison of two policies) is the union returned.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from core.query.names import Variant, path_variants, title_variants
from core.query.text import name_tokens
from core.query.title_index import TitleWords

log = logging.getLogger(__name__)

TITLE_CHUNKS = 3
"""Chunks (by ordinal) that make a document's title text: the title page, the front matter and the
first paragraph; enough for an overview document to mention the products it compares."""

MAX_DOCS_PER_NAME = 3
"""A name that covers more documents than this names a company or a family of documents."""


@dataclass(frozen=True)
class DocumentCatalog:
    """Name variants of the indexed documents.

    Attributes:
        names: variant (tuple of name tokens) → the paths it names (sorted tuple).
        paths: every catalogued path.
        titles: path → title text (the fallback of :func:`detect_scope` searches it).
    """

    names: Mapping[Variant, tuple[str, ...]]
    paths: tuple[str, ...]
    titles: Mapping[str, str] = field(default_factory=dict)
    longest: int = 0
    """Tokens in the longest variant (0: compute from ``names``)."""
    cache: dict[str, Any] = field(default_factory=dict, compare=False)
    """Derived indexes built on first use, once per catalog (``"title_words"``: :func:`title_words`)."""

    def variants_of(self, path: str) -> list[Variant]:
        """The variants that name ``path`` (for ``status`` output and tests)."""
        return sorted(v for v, ps in self.names.items() if path in ps)


def titles_from_chunk_rows(
    rows: Iterable[Mapping[str, Any]], chunks: int = TITLE_CHUNKS
) -> list[tuple[str, str]]:
    """``(path, title_text)`` pairs from chunk rows with ``path``, ``ordinal`` and ``text`` keys.

    The title text is the text of the first ``chunks`` chunks of each path, in ordinal order. Feed it
    ``store.chunk_rows(where=f"ordinal < {TITLE_CHUNKS}", columns=["path", "ordinal", "text"])``.
    """
    by_path: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for row in rows:
        if int(row["ordinal"]) < chunks:
            by_path[str(row["path"])].append((int(row["ordinal"]), str(row["text"])))
    return [(path, "\n".join(text for _, text in sorted(parts))) for path, parts in sorted(by_path.items())]


def build_catalog(titles: Iterable[tuple[str, str]], *, max_docs: int = MAX_DOCS_PER_NAME) -> DocumentCatalog:
    """The :class:`DocumentCatalog` of ``(path, title_text)`` pairs (title text may be ``""``).

    Each path gets the variants of its file name and title lines (:mod:`core.query.names`); each
    variant also covers the paths whose title text contains it as a token run. Variants covering more
    than ``max_docs`` paths are dropped.
    """
    return build_catalogs(titles, (max_docs,))[0]


def build_catalogs(titles: Iterable[tuple[str, str]], max_docs: Sequence[int]) -> list[DocumentCatalog]:
    """:func:`build_catalog` for each limit in ``max_docs``, sharing the work (one pass over the titles).

    Coverage is found through an index of every title's token runs up to the longest variant's length:
    O(title tokens × variant length), where testing each variant against each title was O(variants ×
    documents) and did not finish at 20,000 documents (docs/benchmarks.md).
    """
    docs = list(titles)
    owners: dict[Variant, set[str]] = defaultdict(set)
    for path, text in docs:
        for variant in path_variants(path) | title_variants(text):
            owners[variant].add(path)
    longest = max((len(v) for v in owners), default=0)
    for path, text in docs:
        tokens = tuple(name_tokens(text))
        for n in range(1, longest + 1):
            for i in range(len(tokens) - n + 1):
                run = tokens[i:i + n]
                if run in owners:
                    owners[run].add(path)
    paths, texts = tuple(sorted(p for p, _ in docs)), {p: t for p, t in docs}
    out: list[DocumentCatalog] = []
    shared: dict[str, Any] = {}  # the catalogs share their titles, so their title index too
    for limit in max_docs:
        names = {v: tuple(sorted(ps)) for v, ps in owners.items() if len(ps) <= limit}
        out.append(DocumentCatalog(names, paths, texts, longest, shared))
    log.info("document catalogs: %d documents, %s names of %d", len(docs),
             "/".join(str(len(c.names)) for c in out), len(owners))
    return out


def detect_scope(question: str, catalog: DocumentCatalog, *, union: bool = False) -> list[str] | None:
    """The paths ``question`` names, sorted; ``None`` when it names none (retrieval stays corpus-wide).

    Matching is on :func:`~core.query.text.name_tokens` (case-insensitive, stopwords dropped, plurals
    folded), so "the Sunrise Careplan Plus policy" finds ``("sunrise", "careplan")``.
    ``union``: a comparison ("A compared with B", :mod:`core.query.compare`) names each of its
    documents, so the matched names' documents are united instead of intersected; a name contained
    in a longer matched name ("National Assurance" in "National Assurance … Sunrise") does not add
    its documents then.
    """
    matched = matched_names(question, catalog)
    if not matched:
        return _named_in_titles(question, catalog)
    sets = [set(catalog.names[v]) for v in matched]
    shared = set.intersection(*sets)
    if union:
        sets = [ps for ps in sets if not any(other < ps for other in sets)]  # the most specific names
        shared = set()
    paths = sorted(shared or set.union(*sets))
    log.info("document scope: %d names matched → %d documents", len(matched), len(paths))
    return paths


def matched_names(question: str, catalog: DocumentCatalog) -> list[Variant]:
    """The catalog variants that occur in ``question`` as contiguous token runs, longest first."""
    tokens = tuple(name_tokens(question))
    longest = catalog.longest or max((len(v) for v in catalog.names), default=0)
    found = {tokens[i:i + n] for n in range(1, longest + 1) for i in range(len(tokens) - n + 1)}
    return sorted((v for v in found if v in catalog.names), key=lambda v: (-len(v), v))


def restrict(scope: Sequence[str], detected: Sequence[str] | None, allowed: Iterable[str]) -> list[str]:
    """Combine a channel scope with a detected document scope.

    Args:
        scope: the folder globs the channel may search (e.g. ``["**"]`` or ``["hr/**"]``).
        detected: :func:`detect_scope` output.
        allowed: the indexed paths inside ``scope`` (``core.retrieval.scope_paths``).

    Returns:
        The detected paths the channel may search, or ``list(scope)`` unchanged when nothing was
        detected or none of the detected paths is allowed (a name never widens a channel's scope).
    """
    if not detected:  # the common case: no set of every allowed path per question
        return list(scope)
    permitted = set(allowed)
    narrowed = [p for p in detected if p in permitted]
    return narrowed or list(scope)


def _named_in_titles(question: str, catalog: DocumentCatalog, max_docs: int = MAX_DOCS_PER_NAME
                     ) -> list[str] | None:
    """Fallback of :func:`detect_scope` for documents whose title lines yield no variant (a title
    buried in a header line): the question's product names (runs of 2+ capitalised words,
    :func:`core.query.exact.extract_terms`) searched in each document's title text; the documents
    matched by the most names win, if at most ``max_docs`` of them.

    A name is tested (its regex, :meth:`~core.query.exact.ExactTerm.found_in`) only on the titles
    holding 2+ of its words (all of a 2-word name) as substrings, found through the catalog's
    :class:`TitleWords` index instead of a scan of every title (linear in documents: 62 % of the
    retrieval path at 20,000 documents, docs/benchmarks.md); the same titles pass as with the scan.
    """
    from core.query.exact import ExactTerm, extract_terms

    names = [t for t in extract_terms(question) if t.slot == "name" and len(t.text.split()) >= 2]
    if not names:
        return None
    index = title_words(catalog)
    hits: dict[str, int] = defaultdict(int)
    for term in names:
        def found(path: str, term: ExactTerm = term) -> bool:
            return term.found_in(index.normalised[path], catalog.titles[path])
        for path in index.matching(term, found):
            hits[path] += 1
    best = max(hits.values(), default=0)
    paths = sorted(p for p, n in hits.items() if n == best) if best else []
    if not paths or len(paths) > max_docs:
        return None
    log.info("document scope (title text): %d names → %d documents", len(names), len(paths))
    return paths


def title_words(catalog: DocumentCatalog) -> TitleWords:
    """The :class:`TitleWords` index of ``catalog``'s title texts, built on first use and kept with the
    catalog (which is rebuilt only when an indexed document changed: core/scoping.py)."""
    index = catalog.cache.get("title_words")
    if index is None:
        index = catalog.cache["title_words"] = TitleWords.build(catalog.titles)
    assert isinstance(index, TitleWords)
    return index


def unknown_names(question: str, known: set[str]) -> list[str]:
    """Product names of ``question`` (runs of 2+ capitalised words, :func:`core.query.exact.extract_terms`)
    none of whose words is in ``known`` (the words of the catalog names it matched)."""
    from core.query.exact import extract_terms

    names = [t.text for t in extract_terms(question) if t.slot == "name" and len(t.text.split()) >= 2]
    return [n for n in names if not set(name_tokens(n)) & known]
