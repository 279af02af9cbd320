"""Answerability signals and gates (core/answer/answerability.py, core/answer/evidence.py) and the
calibration's cross-validation grouped by document (core/eval/calibrate.py)."""

from __future__ import annotations

import numpy as np

from core.answer.answerability import FEATURES, gate
from core.answer.evidence import EvidenceFinder
from core.eval.calibrate import Sample, fit_answerability, group_of
from core.eval.dataset import QAItem, QASource
from core.llm.base import GenerationRequest
from core.types import ScoredChunk
from tests.retrieval_helpers import make_chunk

ROW = "Mileage rate | $0.50 per mile | Use your own car only when cheaper than a rental."


def _signals(question: str, *sources: ScoredChunk) -> dict[str, float]:
    return dict(EvidenceFinder(None).find(GenerationRequest(question, list(sources))).signals)


def test_a_question_naming_a_document_none_of_the_quotes_come_from_is_gated() -> None:
    elsewhere = ScoredChunk(make_chunk("other.pdf", ROW), 0.8, {"rerank": 0.8, "named_doc": 0.0})
    signals = _signals("What is the mileage rate in the travel policy?", elsewhere)
    assert signals["named_doc"] == 0.0 and not gate(signals)


def test_named_doc_is_a_gate_not_a_model_input() -> None:
    assert "named_doc" not in FEATURES and {"type_ok", "ids_found"}.isdisjoint(FEATURES)


def test_focus_is_the_share_of_the_asked_for_words_the_answering_unit_holds() -> None:
    hotel = ScoredChunk(make_chunk("t.pdf", "Hotel | $150 per night | Book through the portal."), 0.6,
                        {"rerank": 0.6})
    mileage = ScoredChunk(make_chunk("t.pdf", ROW), 0.6, {"rerank": 0.6})
    assert _signals("What is the per-mile rate?", hotel)["focus"] < 0.5
    assert _signals("What is the per-mile rate?", mileage)["focus"] == 1.0


def test_without_a_reranker_score_the_rerank_signal_is_the_support() -> None:
    fused = ScoredChunk(make_chunk("t.pdf", ROW), 0.016, {"fused": 0.016})
    signals = _signals("What is the mileage rate?", fused)
    assert signals["rerank"] == signals["support"] > 0.016


def test_a_sample_is_grouped_by_its_first_gold_document() -> None:
    item = QAItem("q1", "What is the mileage rate?", "lookup", ("$0.50",),
                  (QASource("hr/travel.pdf", (3,)), QASource("hr/other.pdf", (1,))))
    assert group_of(item) == "hr/travel.pdf" and group_of(QAItem("q2", "Is X covered?", "not_found")) == "q2"


def test_the_calibration_fits_with_samples_grouped_by_document() -> None:
    rng = np.random.default_rng(0)
    samples = []
    for g in range(12):
        base = {f: float(rng.uniform(0.2, 0.9)) for f in FEATURES}
        samples.append(Sample(f"d{g}", "lookup", 1, {**base, "type_ok": 1.0}, group=f"doc{g}"))
        low = {f: v * 0.5 for f, v in base.items()}
        samples.append(Sample(f"d{g}~", "lookup", 0, {**low, "type_ok": 1.0}, counterfactual=True,
                              group=f"doc{g}"))
    fit = fit_answerability(samples)
    assert len(fit.oof) == len(samples) and 0.0 <= fit.threshold <= 1.0
    assert set(fit.model.weights) == set(FEATURES)


def test_the_calibration_tries_four_variants_and_a_monotone_fit_has_no_negative_evidence_weight() -> None:
    rng = np.random.default_rng(1)
    samples = []
    for g in range(12):
        base = {f: float(rng.uniform(0.4, 0.9)) for f in FEATURES}
        samples.append(Sample(f"d{g}", "lookup", 1, {**base, "lead_share": 0.4, "type_ok": 1.0},
                              group=f"doc{g}"))
        low = {f: v * 0.5 for f, v in base.items()}  # weaker evidence, but the full lead share
        samples.append(Sample(f"d{g}~", "lookup", 0, {**low, "lead_share": 1.0, "type_ok": 1.0},
                              counterfactual=True, group=f"doc{g}"))
    fit = fit_answerability(samples)
    assert set(fit.variants) == {"monotone", "monotone + focus gate", "plain", "plain + focus gate"}
    assert fit.variant == "monotone"  # separable either way: the tie goes to the constrained model
    assert fit.model.weights["lead_share"] == 0.0
    assert all(fit.model.weights[f] >= 0.0 for f in FEATURES if f != "needs_value")


def test_an_answer_led_by_a_unit_from_another_document_than_the_named_one_is_gated() -> None:
    other = ScoredChunk(make_chunk("other.md", "Staff get 25 vacation days a year."), 0.8,
                        {"rerank": 0.8, "named_doc": 0.0})
    named = ScoredChunk(make_chunk("handbook.pdf", "Vacation requests go to your manager.", 1), 0.5,
                        {"rerank": 0.5, "named_doc": 1.0})
    signals = _signals("How many vacation days a year do Fabrikam employees get?", other, named)
    assert signals["named_doc"] == 0.0 and not gate(signals)


def test_the_refusal_of_an_answer_led_by_another_document_names_the_named_one() -> None:
    from core.answer.extractive import ExtractiveAnswerer
    from core.config import AnswerSettings

    other = ScoredChunk(make_chunk("hr/Other_Handbook.md", "Staff get 25 vacation days a year."), 0.8,
                        {"rerank": 0.8, "named_doc": 0.0})
    named = ScoredChunk(make_chunk("hr/Fabrikam_Handbook.pdf", "Vacation requests go to your manager.", 1),
                        0.5, {"rerank": 0.5, "named_doc": 1.0})
    gen = ExtractiveAnswerer(AnswerSettings(min_answerability=0.0)).generate(
        GenerationRequest("How many vacation days a year do Fabrikam employees get?", [other, named]))
    assert not gen.found
    assert gen.text.startswith("The Fabrikam Handbook does not state how many vacation days")


def test_the_threshold_never_refuses_the_sample_the_chosen_curve_row_answers() -> None:
    from core.eval.calibrate import choose_threshold, refusal_curve

    p = np.asarray([0.1, 0.3, 0.5, 0.7, 0.9])
    y = np.asarray([0, 1, 0, 1, 1])
    threshold = choose_threshold(refusal_curve(p, y), max_false_refusal=0.0)
    assert threshold == 0.2  # refuses 0.1 (unanswerable), answers 0.3 (the lowest answerable)
