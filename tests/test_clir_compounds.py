"""German compounds across languages: frequency-based splitting (:mod:`core.clir.compounds`), the
structured BM25 leg over the parts, and the answerer scoring German units with the translated
question (:func:`core.answer.crosslingual.translated_relevance`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.answer.crosslingual import translated_relevance
from core.answer.extractive import ExtractiveAnswerer
from core.clir.compounds import CompoundSplitter
from core.clir.dictd import DictdDictionary
from core.clir.search import ScopeIndex
from core.clir.translate import DictionaryTranslator
from core.llm.base import GenerationRequest
from tests.dictd_builder import write_dictd
from tests.retrieval_helpers import ANSWER, make_chunk, scored

ENG_DEU = {
    "parrot": ["Papagei <masc>"],
    "vet": ["Tierarzt <masc>"],
    "bill": ["Rechnung <fem>"],
}
DEU_ENG = {"käfig": ["cage"], "versand": ["dispatch"], "meldung": ["report"], "reise": ["journey"]}
BIRDS = [  # invented Globex pet-travel terms: the asked-for clause names the parrot inside compounds
    "Die Globex erstattet die Tierarztrechnung für einen Hund bis höchstens CHF 200 pro Reise.",
    "Für die Papageienkäfigreinigung und die Tierarztrechnung eines Papageis zahlt sie bis CHF 90.",
    "Die Tierarztrechnung einer Katze ist bei der Globex nur nach einem Unfall auf der Reise versichert.",
]


@pytest.fixture()
def translator(tmp_path: Path) -> DictionaryTranslator:
    to_de = write_dictd(tmp_path / "freedict-eng-deu", ENG_DEU)
    to_en = write_dictd(tmp_path / "freedict-deu-eng", DEU_ENG)
    return DictionaryTranslator({("en", "de"): DictdDictionary(to_de), ("de", "en"): DictdDictionary(to_en)})


def test_compounds_split_into_known_parts_with_linking_elements() -> None:
    freq = {"reise": 5, "meldung": 2, "fall": 3, "versicherung": 4, "summe": 2}
    split = CompoundSplitter(freq)
    assert split.parts("reisefallmeldung") == ("reise", "fall", "meldung")
    assert split.parts("versicherungssumme") == ("versicherung", "summe")  # linking "s"
    assert split.parts("versicherung") == () and split.parts("fall") == ()


def test_a_dictionary_headword_is_a_part_the_documents_never_use_alone(tmp_path: Path) -> None:
    lexicon = DictdDictionary(write_dictd(tmp_path / "freedict-deu-eng", DEU_ENG))
    assert CompoundSplitter({"reise": 1}).parts("reiseversand") == ()
    assert CompoundSplitter({"reise": 1}, lexicon.contains).parts("reiseversand") == ("reise", "versand")


def test_the_bm25_leg_matches_a_part_inside_a_compound() -> None:
    texts = ["Kosten vor der Reisefallmeldung sind bis CHF 300 versichert.",
             "Die Meldung erfolgt auf jeder Reise schriftlich.", "Ein Fall ist jeder Schaden."]
    chunks = [(make_chunk("acme.pdf", t, i), t) for i, t in enumerate(texts)]
    found = ScopeIndex(chunks).search([("fall",), ("kosten",)], k=3)
    assert found[0][0].text == texts[0]
    plain = ScopeIndex(chunks, decompound=False).search([("fall",), ("kosten",)], k=3)
    assert plain[0][0].text != texts[0]


def test_german_units_are_scored_with_the_translated_question(translator: DictionaryTranslator) -> None:
    question = "Does the Globex travel cover pay the vet bill for my parrot, and up to what amount?"
    scores = translated_relevance(translator, question, BIRDS, ["de"] * 3)
    assert max(scores, key=lambda i: scores[i][0]) == 1
    assert translated_relevance(translator, question, BIRDS, ["en"] * 3) == {}


def test_the_answer_quotes_the_german_clause_about_the_asked_thing(translator: DictionaryTranslator) -> None:
    question = "Does the Globex travel cover pay the vet bill for my parrot, and up to what amount?"
    sources = [scored(t, ordinal=i) for i, t in enumerate([BIRDS[0], BIRDS[2], BIRDS[1]])]
    gen = ExtractiveAnswerer(ANSWER, translator=translator).generate(GenerationRequest(question, sources))
    assert gen.found and gen.text.startswith(BIRDS[1]) and "Hund" not in gen.text
