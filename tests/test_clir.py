"""Dictionary-based cross-language retrieval (issue 11): the dictd reader, the query translator, and
an English question over a tiny German policy through the real indexer, LanceDB and BM25 leg (fake
embedder: the model is not the subject)."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from core.clir.dictd import DictdDictionary, DictionaryError
from core.clir.search import CrossLanguage, find_dictionaries, make_cross_language
from core.clir.translate import DictionaryTranslator, Vocabulary, base_forms, entry_translations
from core.config import RetrievalSettings
from core.retrieval import HybridRetriever
from tests.dictd_builder import write_dictd
from tests.incremental_helpers import build

ENTRIES = {
    "dental treatment": ["Zahnbehandlung <fem> [med.]"],
    "dental": ["zahnärztlich <adj> [med.]"],
    "treatment": ["Behandlung <fem>"],
    "lawyer": ["Rechtsanwalt <masc> RA, Anwalt <masc> [jur.]"],
    "luggage": [" [Br.] Gepäck <neut>, Reisegepäck <neut>"],
    "cash": ["Bargeld <neut> [fin.]", "Kasse <fem> [econ.]"],
    "abroad": ["im Ausland, ins Ausland"],
    "court": ["Gericht <neut> [jur.]", "Hof <masc>"],
}


@pytest.fixture()
def eng_deu(tmp_path: Path) -> Path:
    folder = tmp_path / "dictd"
    folder.mkdir()
    write_dictd(folder / "freedict-eng-deu", ENTRIES, chunk=24)
    return folder


def test_dictzip_entries_spanning_chunks_are_read_whole(eng_deu: Path) -> None:
    d = DictdDictionary(eng_deu / "freedict-eng-deu")
    assert d.lookup("lawyer") == ["lawyer /ipa/\nRechtsanwalt <masc> RA, Anwalt <masc> [jur.]\n"]


def test_lookup_is_case_insensitive_returns_every_sense_and_never_a_prefix(eng_deu: Path) -> None:
    d = DictdDictionary(eng_deu / "freedict-eng-deu")
    assert len(d.lookup("CASH")) == 2
    assert d.lookup("dent") == [] and len(d.lookup("dental")) == 1


def test_plain_dict_file_reads_the_same(tmp_path: Path) -> None:
    base = write_dictd(tmp_path / "freedict-eng-deu", ENTRIES, compressed=False)
    assert DictdDictionary(base).lookup("court")[1] == "court /ipa/\nHof <masc>\n"


def test_missing_dictionary_files_name_the_file(tmp_path: Path) -> None:
    with pytest.raises(DictionaryError, match="freedict-eng-fra"):
        DictdDictionary(tmp_path / "freedict-eng-fra")


def test_entry_translations_drop_grammar_domains_and_parentheses() -> None:
    entry = "refund /x/ <v>\neine (bereits bezahlte) Summe erstatten, vergüten <v, trans> [fin.]\n" \
            '      "example"  - Beispiel\n see: {refunds}\n'
    assert entry_translations(entry) == ["eine Summe erstatten", "vergüten"]


def test_base_forms_strip_plural_and_verb_endings() -> None:
    assert base_forms("lawyers")[:2] == ["lawyers", "lawyer"]
    assert "injury" in base_forms("injuries") and "stop" in base_forms("stopped")


def test_vocabulary_forms_find_inflections_and_compounds_by_frequency() -> None:
    vocab = Vocabulary({"zahnbehandlungen": 2, "gepäck": 1, "reisegepäck": 5, "anwalts": 3, "hof": 1,
                        "friedhof": 4})
    assert vocab.forms("gepäck") == ["gepäck", "reisegepäck"]
    assert vocab.forms("zahnbehandlung") == ["zahnbehandlungen"]
    assert vocab.forms("anwalt") == ["anwalts"]
    assert vocab.forms("hof") == ["hof"]  # too short to be a compound part


def test_phrase_translation_wins_over_its_words(eng_deu: Path) -> None:
    tr = DictionaryTranslator({("en", "de"): DictdDictionary(eng_deu / "freedict-eng-deu")})
    found = tr.translate("Is dental treatment covered abroad?", "en", "de")
    assert found is not None
    assert found.terms == (("dental treatment", ("zahnbehandlung",)), ("abroad", ("ausland",)))


def test_translations_the_documents_do_not_use_are_dropped_and_names_kept(eng_deu: Path) -> None:
    tr = DictionaryTranslator({("en", "de"): DictdDictionary(eng_deu / "freedict-eng-deu")})
    vocab = Vocabulary({"bargeld": 1, "gericht": 2, "gerichtskosten": 1, "css": 9})
    found = tr.translate("Does CSS pay court costs or cash?", "en", "de", vocab)
    assert found is not None
    assert dict(found.terms) == {"court": ("gericht", "gerichtskosten"), "cash": ("bargeld",)}
    assert found.kept == ("css",) and found.targets("court") == ("gericht", "gerichtskosten")


def test_no_dictionary_for_the_pair_translates_nothing(eng_deu: Path) -> None:
    tr = DictionaryTranslator({("en", "de"): DictdDictionary(eng_deu / "freedict-eng-deu")})
    assert tr.translate("Is dental treatment covered?", "en", "fr") is None


def test_dictionaries_are_found_by_freedict_name(eng_deu: Path) -> None:
    (eng_deu / "freedict-xxx-deu.index").write_text("", encoding="utf-8")
    assert set(find_dictionaries(eng_deu)) == {("en", "de")}


def test_without_dictionaries_it_says_so_once_and_does_not_translate(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    _, store, _ = build(tmp_path, tmp_path)
    with caplog.at_level(logging.WARNING):
        assert make_cross_language(store, tmp_path / "none", 4) is None
    assert [r.message for r in caplog.records if "dict-freedict" in r.message]


@pytest.fixture()
def german_policies(tmp_path: Path) -> Path:
    root = tmp_path / "policies"
    (root / "de").mkdir(parents=True)
    (root / "de/reise.md").write_text(
        "# Reiseversicherung\n\n## Heilungskosten\n\nZahnbehandlungen sind nur infolge eines Unfalles bis "
        "maximal CHF 3000 versichert. Die Leistungen werden längstens bis 120 Tage erbracht.\n\n"
        "## Rechtsschutz\n\nBeauftragt der Versicherte vor der Fallanmeldung einen Anwalt, so sind dessen "
        "Kosten nur bis zu einem Betrag von CHF 300 versichert.\n\n## Reisegepäck\n\nBargeld ist bis "
        "höchstens CHF 2000 versichert, sofern es durch Einbruchdiebstahl abhandengekommen ist.\n",
        encoding="utf-8")
    return root


def test_english_question_finds_the_german_passage_through_the_dictionary(
        tmp_path: Path, german_policies: Path, eng_deu: Path) -> None:
    indexer, store, factory = build(tmp_path, german_policies)
    indexer.reconcile()
    settings = RetrievalSettings(top_k=3, candidates=10, legs=("keyword",))
    question = "Does my travel insurance pay for dental treatment when I am abroad?"
    plain = HybridRetriever(store, factory.embedder, settings).retrieve(question, scope=["de/**"])
    assert not plain.chunks  # no English word of the question is in the German text
    cross = CrossLanguage(store, DictionaryTranslator({("en", "de"): DictdDictionary(eng_deu / "freedict-eng-deu")}))
    result = HybridRetriever(store, factory.embedder, settings, cross=cross).retrieve(question, scope=["de/**"])
    assert result.chunks and "Zahnbehandlungen" in result.chunks[0].chunk.text
    assert result.translation is not None and result.translation.targets("dental") == ("zahnbehandlungen",)


def test_no_dictionary_translation_when_the_documents_share_the_questions_language(
        tmp_path: Path, eng_deu: Path) -> None:
    root = tmp_path / "policies"
    root.mkdir()
    (root / "leave.md").write_text("# Leave\n\nEmployees get twenty-five days of paid leave each calendar "
                                   "year; unused days lapse at the end of March.\n", encoding="utf-8")
    indexer, store, factory = build(tmp_path, root)
    indexer.reconcile()
    cross = CrossLanguage(store, DictionaryTranslator({("en", "de"): DictdDictionary(eng_deu / "freedict-eng-deu")}))
    result = HybridRetriever(store, factory.embedder, RetrievalSettings(), cross=cross).retrieve(
        "How many days of paid leave do I get abroad?")
    assert result.translation is None
