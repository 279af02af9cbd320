"""Pseudo-relevance feedback for the BM25 leg: words of the best first-pass passages, added to the
question and searched as one more leg.

A question in everyday words shares few words with the policy that answers it; the first pass (both
legs fused) still tends to put some passages of the right clause near the top, and those passages
carry the policy's own vocabulary. The relevance model (Lavrenko & Croft, "Relevance-based language
models", SIGIR 2001) estimates the words of relevant text from the top ``k`` results,

    P(w | R) ∝ Σ_d P(d | q) · P(w | d),  P(w | d) = tf(w, d) / |d|,  P(d | q) ∝ fused score of d,

and RM3 (Abdul-Jaleel et al., "UMass at TREC 2004") searches the question's terms together with the
best of them. Here the expansion words are weighted by their rarity among the fused candidates
(IDF over the pool, so words on every candidate — the document's own name, "policy" — are not
chosen), and the expanded query runs as its own BM25 leg fused with the others by reciprocal rank
(Cormack et al. 2009) at ``retrieval.feedback_weight``, so the plain legs keep their say.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence

from core.text import STOP_WORDS, terms
from core.types import ScoredChunk

MIN_LETTERS = 3


def words(text: str) -> list[str]:
    """The content words of ``text`` for feedback: lowercase tokens of :func:`core.text.terms` with at
    least :data:`MIN_LETTERS` letters, no digits, not in :data:`core.text.STOP_WORDS`."""
    return [t for t in terms(text) if len(t) >= MIN_LETTERS and t.isalpha() and t not in STOP_WORDS]


def expansion_terms(question: str, pool: Sequence[ScoredChunk], docs: int, count: int) -> list[str]:
    """Up to ``count`` words of the best ``docs`` passages of ``pool`` (fused candidates, best first)
    by relevance-model weight × pool IDF (module doc), none of them a word of ``question``; ``[]``
    when the pool is empty or ``count`` is 0.

    Args:
        question: the question as searched (its words are never added again).
        pool: the fused candidates, best first (their ``score`` is P(d | q) up to a constant).
        docs: feedback passages (the top of ``pool``).
        count: expansion words wanted.
    """
    if not pool or count <= 0 or docs <= 0:
        return []
    asked = set(words(question))
    bags = [Counter(words(sc.chunk.text)) for sc in pool]
    df: Counter[str] = Counter()
    for bag in bags:
        df.update(bag.keys())
    top = pool[:docs]
    total = sum(max(sc.score, 0.0) for sc in top) or 1.0
    weight: dict[str, float] = {}
    for sc, bag in zip(top, bags, strict=False):
        length = sum(bag.values()) or 1
        for w, tf in bag.items():
            weight[w] = weight.get(w, 0.0) + (max(sc.score, 0.0) / total) * tf / length
    n = len(pool)
    scored = {w: p * math.log(1.0 + (n - df[w] + 0.5) / (df[w] + 0.5))
              for w, p in weight.items() if w not in asked}
    return sorted(scored, key=lambda w: (-scored[w], w))[:count]
