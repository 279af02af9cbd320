"""Settings sections of the question side: retrieval, offline lexicons, the reranker, the answer path
and the LLM chain (re-exported by :mod:`core.config`)."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Literal

from pydantic import Field, field_validator, model_validator

from core.config_base import Section


class RetrievalSettings(Section):
    """Hybrid retrieval: vector leg + BM25 leg, fused by reciprocal rank fusion or a convex combination.

    ``diversity``: when the kept chunks are spread over documents (:mod:`core.diversity`): ``auto``
    for comparison and multi-document questions (:mod:`core.query.compare`), ``always``, ``never``.
    ``diversity_min_relative``: a document not named by the question enters the spread only when its
    best passage scores at least this share of the best passage's score.
    ``follow_references``: a kept passage that defers its figures to a table of its document ("the
    limit stated in the Table of Benefits") brings that table's best-matching chunk
    (:mod:`core.references`).
    ``continue_lists``: a kept passage whose last unit is an item of a list introduced by a lead-in
    ending with ":" brings its document's next chunk, where the list goes on (:mod:`core.continuation`).
    ``feedback_terms``: pseudo-relevance feedback words (RM3, :mod:`core.feedback`) from the best
    ``feedback_docs`` fused passages, searched with the question by one more BM25 leg of fusion
    weight ``feedback_weight``; 0 turns it off.
    """

    top_k: int = Field(8, ge=1, le=100)
    candidates: int = Field(30, ge=1, le=1000)
    fusion: Literal["rrf", "convex"] = "rrf"
    rrf_k: int = Field(60, ge=1)
    vector_weight: float = Field(1.0, ge=0.0)
    keyword_weight: float = Field(1.0, ge=0.0)
    glossary: dict[str, str] = Field(default_factory=dict)
    document_scope: bool = True
    legs: tuple[Literal["vector", "keyword"], ...] = ("vector", "keyword")
    exact_weight: float = Field(0.1, ge=0.0)
    diversity: Literal["auto", "always", "never"] = "auto"
    diversity_min_relative: float = Field(0.5, ge=0.0, le=1.0)
    follow_references: bool = True
    continue_lists: bool = True
    feedback_terms: int = Field(0, ge=0, le=50)
    feedback_docs: int = Field(5, ge=1, le=100)
    feedback_weight: float = Field(0.5, ge=0.0)

    @field_validator("glossary")
    @classmethod
    def _glossary_keys_not_empty(cls, v: dict[str, str]) -> dict[str, str]:
        if any(not k.strip() for k in v):
            raise ValueError("a glossary term is empty; remove it or name the term")
        return v


class LexiconSettings(Section):
    """Offline word resources for questions (docs/retrieval.md): bilingual dictionaries in the dictd
    format for cross-language retrieval (``cross_language``; FreeDict, ``make system-deps``), and at
    most ``translation_terms`` document words per translated question word.
    ``cross_language_vector``: the embedding model reads the documents' languages too (a multilingual
    model), so its vector leg and cosine still count for a translated question; false for the bundled
    English-only MiniLM."""

    dictionaries_dir: Path = Path("/usr/share/dictd")
    cross_language: bool = True
    translation_terms: int = Field(4, ge=1, le=20)
    cross_language_vector: bool = False


class RerankSettings(Section):
    """Second-stage reranker: a cross-encoder, or the offline fallback when it cannot be loaded."""

    enabled: bool = True
    provider: Literal["auto", "cross-encoder", "offline", "fake"] = "auto"
    model: str = "cross-encoder/ms-marco-MiniLM-L-6-v2"
    dtype: Literal["float32", "bfloat16"] = "bfloat16"
    max_length: int = Field(256, ge=16, le=512)
    candidates: int = Field(20, ge=1, le=200)
    keep: int = Field(5, ge=1, le=50)


class AnswerSettings(Section):
    """The answer path: the answerability threshold, quoting limits, follow-up condensation.

    ``min_answerability``: answer only when the calibrated answerability (:mod:`core.answer.answerability`)
    reaches it, else refuse naming what is missing; the default is written by ``policybot eval
    --calibrate`` (docs/eval/calibration.md). ``min_score`` and ``min_coverage`` are the retired
    thresholds of the lexical coverage gate: still accepted so old files load, ignored (a WARNING says so).
    """

    min_answerability: float = Field(0.0, ge=0.0, le=1.0)
    min_score: float | None = Field(None, ge=0.0, le=1.0)
    min_coverage: float | None = Field(None, ge=0.0, le=1.0)
    max_sentences: int = Field(6, ge=1, le=20)
    condense: bool = True
    max_context_tokens: int = Field(3000, ge=256)
    max_question_chars: int = Field(1000, ge=100, le=100_000)

    @model_validator(mode="after")
    def _retired(self) -> AnswerSettings:
        retired = [k for k in ("min_score", "min_coverage") if getattr(self, k) is not None]
        if retired:
            logging.getLogger(__name__).warning(
                "answer.%s is retired and ignored: answers are gated by answer.min_answerability "
                "(calibrated by `policybot eval --calibrate`); remove it from the config",
                " / answer.".join(retired))
        return self


class LLMProviderSettings(Section):
    """One LLM provider of the fallback chain."""

    kind: Literal["gemini", "openai"]
    model: str
    base_url: str | None = None
    api_key_env: str | None = None
    timeout_s: float = Field(30.0, gt=0)
    max_retries: int = Field(2, ge=0, le=10)
    backoff_s: float = Field(1.0, ge=0)
    max_wait_s: float = Field(30.0, ge=0)


class LLMSettings(Section):
    """The LLM fallback chain; the extractive answerer is always appended last."""

    providers: tuple[LLMProviderSettings, ...] = ()
    breaker_failures: int = Field(3, ge=1)
    breaker_cooldown_s: float = Field(60.0, ge=0)
    temperature: float = Field(0.1, ge=0.0, le=2.0)
    max_output_tokens: int = Field(1024, ge=64)
    keyword_augmentations: dict[str, str] = Field(default_factory=dict)
