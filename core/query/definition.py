"""Definition questions: the term a question asks to define, and how a policy's definition of it reads.

Policy wordings define their terms in a numbered glossary ("2.22 Hospital means any institution …").
A question such as "How does the policy define a 'Dependant'?" shares only the word *dependant* with that
clause, and so do dozens of other clauses; the exact-match boost (:mod:`core.query.exact`) therefore
adds the definition itself as a term: the asked-for term followed by ``means``, ``refers to``,
``shall mean`` or ``is defined as`` (the definition verbs of IRDAI standard definitions and of
contract glossaries generally).

The reranker scores a whole chunk; a glossary chunk that opens with another clause ("The Grace
Period … 2.22 Hospital means …") can rank below chunks that merely use the term, so the retriever
keeps the pooled chunk holding the definition in front (:func:`with_definition`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from core.types import ScoredChunk

_TERM = r"['\"“‘]?([^\W\d_][\w'’\- ]{0,48}?)['\"”’]?"
_ARTICLE = r"(?:(?:the|a|an)\s+)?(?:(?:term|word|expression)\s+)?"
_QUESTION = re.compile(
    r"\bdefine[sd]?\s+" + _ARTICLE + _TERM + r"\s*(?:[?.!]|$|\s+(?:in|under|for|as)\b)"
    r"|\b(?:definition|meaning)\s+of\s+" + _ARTICLE + _TERM + r"\s*(?:[?.!]|$|\s+(?:in|under|for)\b)"
    r"|\bwhat\s+(?:is|are)\s+meant\s+by\s+" + _ARTICLE + _TERM + r"\s*(?:[?.!]|$)"
    r"|\bwhat\s+does\s+" + _ARTICLE + _TERM + r"\s+mean\b"
    r"|^\s*what\s+is\s+(?:a|an)\s+" + _TERM + r"\s*\?\s*$",
    re.IGNORECASE,
)
MAX_TERM_WORDS = 5
"""Longer "terms" are clauses of the question, not a defined term."""


def defined_term(question: str) -> str | None:
    """The term a definition question asks about ("How does the policy define a 'Dependant'?" →
    ``"Dependant"``; "What does pre-existing disease mean?" → ``"pre-existing disease"``), else ``None``."""
    m = _QUESTION.search(question.strip())
    if m is None:
        return None
    term = next(g for g in m.groups() if g).strip(" '\"“”‘’")
    return term if 0 < len(term.split()) <= MAX_TERM_WORDS else None


def definition_pattern(term: str) -> re.Pattern[str]:
    """Regex for the clause defining ``term`` in lowercased chunk text: the term (flexible spaces and
    hyphens, an optional plural ``s``, an optional parenthesis such as an abbreviation) followed by a
    definition verb: "hospital means", "pre-existing disease (ped) means", "hospitals refer to"; a
    clause number glued to the term by extraction ("2.22hospital means") still matches."""
    words = re.findall(r"[^\W_]+", term.lower())
    body = r"[\s\-]*".join(map(re.escape, words))
    return re.compile(rf"(?<![^\W\d_]){body}s?['’]?\s*(?:\([^)]{{0,40}}\)\s*)?"
                      r"(?:means?|refers?\s+to|shall\s+mean|is\s+defined\s+as)\b")


def with_definition(question: str, pool: Sequence[ScoredChunk], kept: list[ScoredChunk]) -> list[ScoredChunk]:
    """``kept`` (the reranked chunks) with the first chunk of ``pool`` (the fused candidates the
    reranker scored) that defines the term a definition question asks about (:func:`defined_term`,
    :func:`definition_pattern`) put first, at the score of the best kept chunk and marked
    ``scores["definition"] = 1.0``. ``kept`` unchanged when the question asks for no definition, a
    kept chunk already holds it, or no pooled chunk does."""
    term = defined_term(question)
    if term is None:
        return kept
    pattern = definition_pattern(term)
    if any(pattern.search(sc.chunk.text.lower()) for sc in kept):
        return kept
    found = next((sc for sc in pool if pattern.search(sc.chunk.text.lower())), None)
    if found is None:
        return kept
    score = kept[0].score if kept else found.score
    return [ScoredChunk(found.chunk, score, {**found.scores, "definition": 1.0}), *kept]
