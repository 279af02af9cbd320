"""Query stages that make retrieval fit policy wording (pure functions; the lead wires them in).

In data-flow order: :mod:`~core.query.condense` (follow-up → standalone question, LLM or
deterministic) → :mod:`~core.query.doc_scope` (does the question name a policy? → restrict retrieval to
it) → retrieval (glossary expansion lives in :mod:`core.retrieval`) →
:mod:`~core.query.exact` (exact-match boost for numbers, clause ids and plan/product names).
Shared normalisation is in :mod:`~core.query.text`.
"""

from core.query.condense import condense, is_follow_up
from core.query.doc_scope import (
    DocumentCatalog,
    build_catalog,
    detect_scope,
    restrict,
    titles_from_chunk_rows,
)
from core.query.exact import ExactTerm, exact_match_boost, extract_terms
from core.query.rewriter import FakeRewriter, ProviderRewriter, Rewriter

__all__ = [
    "DocumentCatalog", "ExactTerm", "FakeRewriter", "ProviderRewriter", "Rewriter", "build_catalog",
    "condense", "detect_scope", "exact_match_boost", "extract_terms", "is_follow_up", "restrict",
    "titles_from_chunk_rows",
]
