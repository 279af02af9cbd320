"""Answerability: one calibrated 0–1 score per answer, and one threshold (``answer.min_answerability``).

Fixed gates come first, each making the answerability 0: a question that needs a value (an amount, a
period, a phone number …; :mod:`core.answer.answer_type`) when no unit of the sources holds a value of
that type (the answer must contain a value of the asked type from a cited source: issue 11, item 2),
a question naming a plan, tier or clause ("Plan D") that no source contains, a question naming a
document when the answering unit does not come from it (the named document is outside the scope, or
does not say it: the answer would be about another document), and the three binding gates of
:mod:`core.answer.binding` — the question names an organisation or product the answering passage
does not hold, asks for a rate on a basis the answering unit's values are not on, or its value sits
in a unit about another slot while the asked slot holds none; then the focus gate, when the
calibration fitted one (the answering unit is not about the asked-for thing: ``focus`` and
``focus_sim`` both below their fitted thresholds). Otherwise the score is the
probability, from a logistic model fitted by ``policybot eval --calibrate``
(:mod:`core.eval.calibrate`; Platt scaling generalised to several inputs, Niculescu-Mizil & Caruana
2005), that the policies answer the question, given signals that
mean the same however the question is worded and however large the index is (each in [0, 1],
computed by :func:`core.answer.evidence.signals`):

==============  ==========================================================================================
``rerank``      the reranker's calibrated relevance of the best passage (offline reranker: Platt-scaled);
                without a reranker score, ``support`` stands in (a fused retrieval score is no relevance)
``support``     relevance of the unit that answers (embedding similarity, coverage, BM25, source)
``lead_share``  its relevance over the best quoted unit's (a value found only in a weaker passage)
``similarity``  question/answering-unit cosine
``coverage``    IDF-weighted share of the question's content terms the answering unit contains
``focus``       is the answering unit about the asked-for thing? The IDF-weighted share of the question's
                focus words ("mile" of "the per-mile rate"; :mod:`core.answer.focus`) that the unit, its
                lead-in or section path holds (1 when the question has no focus words or is in another
                language than the unit)
``focus_sim``   the cosine of the focus phrase's and the answering unit's embeddings (same exceptions)
``type_ok``     1 when the question needs no value or the answering unit holds a value of its type
                (a gate: 0 makes the answerability 0)
``ids_found``   share of the question's plan/tier/clause identifiers found in the sources ("Plan D";
                a gate: under 1 makes the answerability 0)
``named_doc``   share of the quoted units from a document the question names (1 when it names none,
                0 when the answering unit comes from another document; a gate: 0 makes the
                answerability 0). Not a model input: in calibration only the
                counterfactual samples (gold documents removed) have it below 1, so as an input it
                learned the construction of the samples, not answerability
``name_bound``  share of the question's names (words of a source's document title it writes as a name)
                the answering passage holds (:mod:`core.answer.binding`; a gate: 0 makes the
                answerability 0; for a comparison any quoted passage counts)
``basis_ok``    0 when the question asks for a rate on a basis ("per mile") and the answering unit states
                its values on other bases only ("per night"), else 1 (a gate)
``value_bound`` 0 when the answering unit shares no word with the question while other units name the
                asked slot without a value of its type (the value belongs to another slot), else 1
                (a gate)
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

SIGNALS = ("rerank", "support", "lead_share", "similarity", "coverage", "focus", "focus_sim", "type_ok",
           "ids_found", "named_doc", "name_bound", "basis_ok", "value_bound", "legs", "needs_value")
"""The answerability signals, in the order the calibration reports them."""
GATES = ("type_ok", "ids_found", "named_doc", "name_bound", "basis_ok", "value_bound")
"""Signals that gate instead of weighing (see :func:`gate`)."""
BINDING_GATES = ("name_bound", "basis_ok", "value_bound")
"""The gates of :mod:`core.answer.binding`: closed at 0."""
FEATURES = tuple(s for s in SIGNALS if s not in GATES)
"""The logistic model's inputs."""
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
    """False when a fixed gate (:func:`fixed_gate`) or the calibrated focus gate closes: the answering
    unit is not about the asked-for thing, every signal of ``focus_gate`` in ``core/calibration.json``
    being below its threshold (:mod:`core.eval.focus_gate`; no such gate when the calibration chose
    none)."""
    if not fixed_gate(signals):
        return False
    thresholds = load_calibration().focus_gate
    return not thresholds or not all(signals.get(k, 1.0) < t for k, t in thresholds.items())


def fixed_gate(signals: Mapping[str, float]) -> bool:
    """False when the question needs a value and no unit holds one (``type_ok`` 0), names an
    identifier no source contains (``ids_found`` under 1), names a document none of the quoted
    units comes from (``named_doc`` 0), or a binding gate closes (``name_bound``, ``basis_ok`` or
    ``value_bound`` 0: :mod:`core.answer.binding`). A missing signal never closes a gate."""
    return (bool(signals.get("type_ok", 1.0)) and signals.get("ids_found", 1.0) >= 1.0
            and all(signals.get(k, 1.0) > 0.0 for k in ("named_doc", *BINDING_GATES)))
