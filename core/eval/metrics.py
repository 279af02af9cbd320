"""Eval metrics: key-fact matching with number normalisation, retrieval relevance, hit@k, MRR,
nDCG@k, and latency percentiles. Pure functions over plain values.

Key facts (qa_dev.yaml's rule): match case-insensitively, ignoring thousands separators and
whitespace; number words and digits are equivalent ("thirty days" ≈ "30 days", "Rs 40,000" ≈ "40000",
"1,00,000" ≈ "100000", "$71.00" ≈ "$71", "5 per cent" ≈ "5%").

Retrieval: a retrieved citation is relevant when its file equals a gold source's file and its page
span [page, page_end] overlaps the gold pages (gold pages ``[]`` — DOCX/MD — match on file alone).
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Mapping, Sequence

import numpy as np

from core.eval.dataset import QASource
from core.text import normalise, normalise_numbers
from core.types import Citation

_DASHES = str.maketrans({"–": "-", "—": "-", "‑": "-", "‐": "-", "’": "'", "‘": "'", "“": '"', "”": '"'})
_DROP = re.compile(r"[()\[\]{},;:!?\"'*|#~<>`]")


def normalise_text(text: str) -> str:
    """Canonical form for key-fact matching (see the module docstring): NFKC, lowercase, number
    words → digits (:func:`core.text.normalise_numbers`), no thousands separators or trailing ".00",
    "per cent" → "%", punctuation other than ``$ % . - / @ +`` (and dots outside numbers) → space,
    single spaces."""
    t = normalise_numbers(normalise(text).translate(_DASHES))
    t = re.sub(r"(\d)\.0+(?!\d)", r"\1", t)
    t = re.sub(r"\s*\b(?:per\s*cent|percent)\b", "%", t)
    t = re.sub(r"(\d)\s+%", r"\1%", t)
    t = re.sub(r"\$\s+(?=\d)", "$", t)
    t = re.sub(r"(\d)([a-z])", r"\1 \2", t)
    t = re.sub(r"(?<!\d)\.|\.(?!\d)", " ", _DROP.sub(" ", t))
    return " ".join(t.split())


def fact_found(fact: str, answer: str) -> bool:
    """True when ``fact`` occurs in ``answer`` as whole words/numbers, either verbatim (case and
    spacing aside) or after normalising both ("5%" is not found in "25%" or "0.5%"; "2 years" not in
    "12 years"). The verbatim test comes first because number-word reading can join a fact's number
    to the words before it in the answer ("ten lacs and fifteen beds" reads as one number, yet the
    answer does say "fifteen beds")."""
    f = _fold_units(normalise_text(fact))
    if not f:
        return True
    return _whole(_spaced(fact), _spaced(answer)) or _whole(f, _fold_units(normalise_text(answer)))


def _spaced(text: str) -> str:
    """``text`` lowercased with runs of whitespace made single spaces."""
    return " ".join(text.lower().split())


def _whole(fact: str, text: str) -> bool:
    """True when ``fact`` occurs in ``text`` not glued to a word, digit, "%" or decimal part."""
    pattern = rf"(?<![\w.]){re.escape(fact)}(?![\w%]|\.\d)"
    return bool(fact) and re.search(pattern, text) is not None


def _fold_units(text: str) -> str:
    """Plural units after a number folded to the singular: "150 kms" = "150 km", "30 days" = "30 day"."""
    return re.sub(r"(?<=\d )(km|hr|yr|day|month|year|week|hour)s\b", r"\1", text)


def split_facts(facts: Sequence[str], answer: str) -> tuple[list[str], list[str]]:
    """(facts found in ``answer``, facts missing), each in the given order."""
    found = [f for f in facts if fact_found(f, answer)]
    return found, [f for f in facts if f not in found]


def covered_units(cite: Citation, sources: Iterable[QASource]) -> set[tuple[str, int | None]]:
    """Gold units ``(file, page)`` (``(file, None)`` for page-less sources) that ``cite`` covers."""
    file = cite.file.replace("\\", "/").removeprefix("./")
    lo = cite.page
    hi = cite.page_end if cite.page_end is not None else cite.page
    out: set[tuple[str, int | None]] = set()
    for src in sources:
        if src.file != file:
            continue
        if not src.pages:
            out.add((src.file, None))
        elif lo is not None and hi is not None:
            out.update((src.file, p) for p in src.pages if lo <= p <= hi)
    return out


def gold_units(sources: Iterable[QASource]) -> set[tuple[str, int | None]]:
    """All gold units of an item: one per (file, page), or (file, None) for page-less sources."""
    out: set[tuple[str, int | None]] = set()
    for src in sources:
        out.update((src.file, p) for p in src.pages) if src.pages else out.add((src.file, None))
    return out


def relevance(retrieved: Sequence[Citation], sources: Sequence[QASource]) -> list[bool]:
    """Per retrieved citation (best first): does it cover any gold unit?"""
    return [bool(covered_units(c, sources)) for c in retrieved]


def first_relevant_rank(flags: Sequence[bool]) -> int | None:
    """1-based rank of the first relevant citation, ``None`` when none is relevant."""
    return next((i + 1 for i, f in enumerate(flags) if f), None)


def hit_at_k(flags: Sequence[bool], k: int) -> float:
    """1.0 when a relevant citation is among the first ``k``, else 0.0."""
    return 1.0 if any(flags[:k]) else 0.0


def reciprocal_rank(flags: Sequence[bool]) -> float:
    """1 / rank of the first relevant citation (0.0 when none); its mean over items is MRR."""
    rank = first_relevant_rank(flags)
    return 1.0 / rank if rank else 0.0


def ndcg_at_k(retrieved: Sequence[Citation], sources: Sequence[QASource], k: int = 5) -> float:
    """nDCG@k (Järvelin & Kekäläinen, ACM TOIS 2002) with binary gains over gold units.

    A citation's gain is the number of gold units it covers that no better-ranked citation covered
    (so duplicates of one page earn nothing); DCG = Σ gain_i / log2(i + 1) over ranks i = 1..k.
    The ideal ranking covers one new unit per rank: IDCG = Σ_{i ≤ min(k, |units|)} 1 / log2(i + 1).
    Clipped to 1.0 (one chunk spanning several gold pages can beat that ideal). 0.0 without units.
    """
    units = gold_units(sources)
    if not units:
        return 0.0
    seen: set[tuple[str, int | None]] = set()
    dcg = 0.0
    for i, cite in enumerate(retrieved[:k]):
        new = covered_units(cite, sources) - seen
        seen |= new
        dcg += len(new) / math.log2(i + 2)
    idcg = sum(1.0 / math.log2(i + 2) for i in range(min(k, len(units))))
    return min(dcg / idcg, 1.0)


def percentiles(values: Sequence[float]) -> dict[str, float]:
    """``{"p50", "p95"}`` by linear interpolation between order statistics (numpy's default)."""
    arr = np.asarray(values, dtype=float)
    return {"p50": float(np.percentile(arr, 50)), "p95": float(np.percentile(arr, 95))}


def latency_summary(timings: Iterable[Mapping[str, float]]) -> dict[str, dict[str, float]]:
    """Per stage (in first-seen order): p50 and p95 in ms over the answers that report that stage."""
    per_stage: dict[str, list[float]] = {}
    for t in timings:
        for stage, ms in t.items():
            per_stage.setdefault(stage, []).append(float(ms))
    return {stage: percentiles(v) for stage, v in per_stage.items()}


def mean(values: Sequence[float]) -> float | None:
    """Arithmetic mean, ``None`` for no values (a metric that does not apply)."""
    return sum(values) / len(values) if values else None
