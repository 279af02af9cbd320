"""Answerability signals across languages (:mod:`core.answer.crosslingual`): an English question
answered by a German unit gets ``coverage`` and ``focus`` in the unit's language."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.answer.crosslingual import concept_share, cross_signals
from core.clir.dictd import DictdDictionary
from core.clir.translate import DictionaryTranslator
from tests.dictd_builder import write_dictd

ENTRIES = {
    "dental treatment": ["Zahnbehandlung <fem>"],
    "tooth": ["Zahn <masc>"],
    "lawyer": ["Anwalt <masc>, Rechtsanwalt <masc>"],
    "fee": ["Gebühr <fem> [fin.]", "Honorar <neut>"],
    "abroad": ["im Ausland"],
}
UNITS = [
    "Zahnbehandlungen sind nur infolge eines Unfalles bis maximal CHF 3000 im Ausland versichert.",
    "Die Kosten des Anwalts werden bis CHF 300 übernommen, wenn der Fall vorher gemeldet wurde.",
    "Die Deckung erlischt mit dem Eintreffen der Kündigung bei der Versicherung im Ausland.",
]


@pytest.fixture()
def translator(tmp_path: Path) -> DictionaryTranslator:
    base = write_dictd(tmp_path / "freedict-eng-deu", ENTRIES)
    return DictionaryTranslator({("en", "de"): DictdDictionary(base)})


def test_the_unit_about_the_asked_thing_binds_across_languages(translator: DictionaryTranslator) -> None:
    question = "Does my travel insurance pay for dental treatment while I am abroad on holiday?"
    right = cross_signals(translator, question, "dental treatment", UNITS[0], UNITS)
    other = cross_signals(translator, question, "dental treatment", UNITS[2], UNITS)
    assert right["focus"] == 1.0 and other["focus"] == 0.0
    assert right["coverage"] > other["coverage"] > 0.0


def test_same_language_keeps_the_monolingual_signals(translator: DictionaryTranslator) -> None:
    english = "Dental treatment abroad is covered up to CHF 3000 after an accident while travelling."
    question = "Does my travel insurance pay for dental treatment while I am abroad on holiday?"
    assert cross_signals(translator, question, "dental treatment", english, [english]) == {}


def test_a_focus_without_translation_is_left_out(translator: DictionaryTranslator) -> None:
    question = "Are the lawyer's fees covered if I hire one myself before reporting the case abroad?"
    found = cross_signals(translator, question, "kangaroo", UNITS[1], UNITS)
    assert "focus" not in found and found["coverage"] > 0.5


def test_a_rare_concept_weighs_more_than_a_common_one() -> None:
    bags = [frozenset({"ausland", "zahn"}), frozenset({"ausland"}), frozenset({"ausland", "anwalt"})]
    assert concept_share([("zahn",), ("ausland",)], frozenset({"zahn"}), bags) > 0.5
    assert concept_share([("zahn",), ("ausland",)], frozenset({"ausland"}), bags) < 0.5
