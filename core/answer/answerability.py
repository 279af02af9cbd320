"""Answerability: one calibrated 0–1 score per answer, and one threshold (``answer.min_answerability``).

A question that needs a value (an amount, a period, a phone number …; :mod:`core.answer.answer_type`)
whose answering unit holds no value of that type has answerability 0: the answer must contain a
value of the asked type from a cited source (issue 11, item 2). Otherwise the score is the
probability, from a logistic model fitted by ``policybot eval --calibrate``
(:mod:`core.eval.calibrate`; Platt scaling generalised to several inputs, Niculescu-Mizil & Caruana
2005), that the policies answer the question, given signals that mean the same however the question
is worded (each in [0, 1], computed by :func:`core.answer.evidence.signals`):

==============  ==========================================================================================
``rerank``      the reranker's calibrated relevance of the best passage (offline reranker: Platt-scaled)
``support``     relevance of the unit that answers (embedding similarity, coverage, BM25, source)
``similarity``  question/answering-unit cosine
``coverage``    IDF-weighted share of the question's content terms the answering unit contains
``type_ok``     1 when the question needs no value or the answering unit holds a value of its type
                (a gate, not a model input: 0 makes the answerability 0)
``ids_found``   share of the question's plan/tier/clause identifiers found in the sources ("Plan D")
``named_doc``   share of the quoted units from a document the question names (1 when it names none)
``legs``        share of the best 3 passages that both retrieval legs (vector and BM25) found
``needs_value`` 1 when the expected answer type needs a value (money, duration, phone …)
==============  ==========================================================================================

Before a calibration exists the score falls back to ``support · type_ok · ids_found`` (logged once).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping

from core.calibration import load_calibration

log = logging.getLogger(__name__)

SIGNALS = ("rerank", "support", "similarity", "coverage", "type_ok", "ids_found", "named_doc", "legs",
           "needs_value")
"""The answerability signals, in the order the calibration reports them."""
FEATURES = tuple(s for s in SIGNALS if s != "type_ok")
"""The logistic model's inputs (``type_ok`` gates instead)."""
_warned: list[bool] = []


def answerability(signals: Mapping[str, float]) -> float:
    """The calibrated probability in [0, 1] that the sources answer the question (see module doc)."""
    if not gate(signals):
        return 0.0
    model = load_calibration().answerability
    if model is None:
        if not _warned:
            log.warning("answerability is not calibrated (core/calibration.json); run `policybot eval "
                        "--calibrate`; using support x ids_found meanwhile")
            _warned.append(True)
        return float(signals.get("support", 0.0) * signals.get("ids_found", 0.0))
    return round(model.probability(signals), 4)


def gate(signals: Mapping[str, float]) -> bool:
    """False when the question needs a value and the answering unit holds none (``type_ok`` 0)."""
    return bool(signals.get("type_ok", 1.0))
