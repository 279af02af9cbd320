"""Question focus and its binding to the answering unit (core/answer/focus.py), the fitted focus gate
(core/eval/focus_gate.py) and how the answer path uses them."""

from __future__ import annotations

import numpy as np
import pytest

from core.answer import answerability as ans
from core.answer.evidence import EvidenceFinder
from core.answer.extractive import ExtractiveAnswerer
from core.answer.focus import lexical_binding, question_focus, same_language
from core.calibration import Calibration
from core.config import AnswerSettings
from core.eval import focus_gate as fg
from core.eval.calibrate import Sample, fit_answerability
from core.llm.base import GenerationRequest
from core.text import content_terms, stem
from core.types import ScoredChunk
from tests.retrieval_helpers import make_chunk

HOTEL = "Accommodation | $150 per night | Stay at a standard hotel near the client."
MILEAGE = "Mileage | $0.50 per mile | Use your own car only when cheaper than a rental."


def _bags(*texts: str) -> list[frozenset[str]]:
    return [frozenset(content_terms(t)) for t in texts]


def test_the_focus_of_a_rate_question_is_what_the_rate_is_of() -> None:
    assert question_focus("What's the per-mile rate if I use my own car to see a client?").terms == {"mile"}


def test_the_focus_of_a_unit_count_is_its_of_complement_without_the_rate_denominator() -> None:
    focus = question_focus("How many weeks of severance pay per year of service does Fabrikam give?",
                           ["Fabrikam Layoff Procedures"])
    assert focus.terms == {"severance"}


def test_a_leading_condition_is_framing_not_focus() -> None:
    focus = question_focus("If I cancel three days before check-in, what share of the deposit comes back?")
    assert "cancel" not in focus.terms and "deposit" in focus.terms


def test_a_yes_no_question_is_about_its_objects() -> None:
    assert question_focus("Am I allowed to bring my dog to the office?").terms == {"bring", "dog", "office"}
    assert question_focus("does 37signals pay for a gym membership?").terms >= {"gym", "membership"}


def test_a_name_of_a_source_document_is_not_a_focus_word() -> None:
    focus = question_focus("does 37signals pay for a gym membership?",
                           ["Benefits 37signals benefits and perks md"])
    assert focus.terms == {"gym", "membership"} and focus.span == "gym membership"


def test_a_question_asking_only_for_a_kind_of_value_has_no_focus() -> None:
    assert question_focus("How much is it?").terms == frozenset()


def test_binding_is_whether_the_unit_holds_the_focus_words() -> None:
    focus = question_focus("What's the per-mile rate?")
    bags = _bags(HOTEL, MILEAGE)
    assert lexical_binding(focus, MILEAGE, bags) == 1.0  # "mile" also binds "Mileage"
    assert lexical_binding(focus, HOTEL, bags) == 0.0


def test_a_glossary_abbreviation_binds_its_expansion() -> None:
    focus = question_focus("What is the sum insured for a family floater?")
    text = "The SI is shared by all members of the family floater."
    assert lexical_binding(focus, text, _bags(text), {"SI": "sum insured"}) == 1.0
    assert lexical_binding(focus, text, _bags(text)) < 1.0


def test_a_unit_in_another_language_cannot_be_checked() -> None:
    german = "Die Versicherung übernimmt die Kosten für Zahnbehandlungen im Ausland bis CHF 3000 pro Reise."
    assert not same_language("Does my travel insurance cover dental treatment abroad?", german)
    english = "Dental treatment abroad is covered up to the amount in the schedule."
    assert same_language("Does my travel insurance cover dental treatment abroad?", english)


def test_the_signals_are_neutral_without_a_focus_and_low_for_a_unit_about_another_thing() -> None:
    hotel = ScoredChunk(make_chunk("t.pdf", HOTEL), 0.6, {"rerank": 0.6})
    signals = EvidenceFinder(None).find(GenerationRequest("What is the per-mile rate?", [hotel])).signals
    assert signals["focus"] == signals["focus_sim"] == 0.0
    signals = EvidenceFinder(None).find(GenerationRequest("How much is it?", [hotel])).signals
    assert signals["focus"] == signals["focus_sim"] == 1.0


def test_the_rectangle_refuses_only_where_no_answerable_sample_is() -> None:
    x = np.asarray([[0.0, 0.1], [0.0, 0.2], [0.0, 0.6], [1.0, 0.3], [1.0, 0.9], [0.5, 0.15]])
    y = np.asarray([0, 0, 1, 1, 1, 0])
    rect = fg.fit_rectangle(x, y)
    assert rect is not None
    assert fg.refused(x, rect).tolist() == [True, True, False, False, False, True]


def test_no_rectangle_when_every_unanswerable_sample_sits_among_answerable_ones() -> None:
    x = np.asarray([[0.0, 0.1], [0.0, 0.05], [1.0, 1.0]])
    assert fg.fit_rectangle(x, np.asarray([0, 1, 1])) is None


def _samples(separable: bool) -> list[Sample]:
    """Unanswerable samples like answerable ones in every model input; when ``separable``, they sit in
    the low corner of (focus, focus_sim) between answerable ones no half-plane can cut off."""
    rng = np.random.default_rng(1)
    out = []
    for g in range(12):
        base = {f: float(rng.uniform(0.3, 0.9)) for f in ans.FEATURES}
        for i, (f, s) in enumerate([(0.0, 0.6), (0.6, 0.0), (1.0, 1.0)]):
            out.append(Sample(f"a{g}.{i}", "lookup", 1, {**base, "focus": f, "focus_sim": s}, group=f"d{g}"))
        low = (0.45, 0.45) if separable else (1.0, 1.0)
        out.append(Sample(f"n{g}", "not_found", 0, {**base, "focus": low[0], "focus_sim": low[1]},
                          group=f"d{g}"))
    return out


def test_the_calibration_uses_the_gate_only_when_it_refuses_more_out_of_fold() -> None:
    fit = fit_answerability(_samples(separable=True))
    assert fit.focus_gate is not None and fit.gated_oof is not None and fit.gated_oof.sum() == 12
    assert fit_answerability(_samples(separable=False)).focus_gate is None


def test_the_answer_path_refuses_below_the_fitted_gate_and_names_what_is_missing(
        monkeypatch: pytest.MonkeyPatch) -> None:
    gate = Calibration(focus_gate={"focus": 0.5, "focus_sim": 0.5})
    monkeypatch.setattr(ans, "load_calibration", lambda: gate)
    pets = ScoredChunk(make_chunk("hr/Perks.md", "Everyone can buy pet insurance at a 10% discount."), 0.7,
                       {"rerank": 0.7})
    gen = ExtractiveAnswerer(AnswerSettings(min_answerability=0.0)).generate(
        GenerationRequest("Can I bring my dog to the office?", [pets]))
    assert not gen.found and gen.cited == (1,)
    assert "bring my dog to the office" in gen.text


def test_without_a_fitted_gate_the_focus_signals_only_weigh(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ans, "load_calibration", lambda: Calibration())
    assert ans.gate({"type_ok": 1.0, "ids_found": 1.0, "named_doc": 1.0, "focus": 0.0, "focus_sim": 0.0})


def test_a_trailing_place_adjunct_is_framing_not_focus() -> None:
    assert question_focus("how much do we get back for bike storage at the station?").terms == {
        stem("bike"), stem("storage")}


def test_a_place_adjunct_is_kept_when_nothing_else_would_remain() -> None:
    assert stem("gym") in question_focus("how much do we pay at the gym?").terms
