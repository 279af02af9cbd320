"""Dictionary-based cross-language retrieval (issue 11): the dictd reader, the query translator, and
an English question over a tiny German policy through the real indexer, LanceDB and BM25 leg (fake
embedder: the model is not the subject)."""

from __future__ import annotations

import logging
from dataclasses import replace
from pathlib import Path

import pytest

from core.clir.dictd import DictdDictionary, DictionaryError
from core.clir.search import CrossLanguage, find_dictionaries, make_cross_language
from core.clir.translate import DictionaryTranslator, Vocabulary, base_forms, entry_translations
from core.config import RetrievalSettings
from core.embedder import FakeEmbedder
from core.retrieval import HybridRetriever
from core.store import DocumentRecord
from tests.dictd_builder import write_dictd
from tests.incremental_helpers import build
from tests.retrieval_helpers import make_chunk, new_store

ENTRIES = {
    "eye test": ["Sehtest <masc> [med.]"],
    "eye": ["Auge <neut> [anat.]"],
    "test": ["Prüfung <fem>, Test <masc>"],
    "interpreter": ["Dolmetscher <masc>, Übersetzer <masc>"],
    "weekend": ["Wochenende <neut>"],
    "bicycle": [" [Br.] Fahrrad <neut>, Rad <neut>"],
    "fee": ["Gebühr <fem> [fin.]", "Honorar <neut>"],
}


@pytest.fixture()
def eng_deu(tmp_path: Path) -> Path:
    folder = tmp_path / "dictd"
    folder.mkdir()
    write_dictd(folder / "freedict-eng-deu", ENTRIES, chunk=24)
    return folder


def test_dictzip_entries_spanning_chunks_are_read_whole(eng_deu: Path) -> None:
    d = DictdDictionary(eng_deu / "freedict-eng-deu")
    assert d.lookup("interpreter") == ["interpreter /ipa/\nDolmetscher <masc>, Übersetzer <masc>\n"]


def test_lookup_is_case_insensitive_returns_every_sense_and_never_a_prefix(eng_deu: Path) -> None:
    d = DictdDictionary(eng_deu / "freedict-eng-deu")
    assert len(d.lookup("FEE")) == 2
    assert d.lookup("bicy") == [] and len(d.lookup("bicycle")) == 1


def test_plain_dict_file_reads_the_same(tmp_path: Path) -> None:
    base = write_dictd(tmp_path / "freedict-eng-deu", ENTRIES, compressed=False)
    assert DictdDictionary(base).lookup("fee")[1] == "fee /ipa/\nHonorar <neut>\n"


def test_missing_dictionary_files_name_the_file(tmp_path: Path) -> None:
    with pytest.raises(DictionaryError, match="freedict-eng-fra"):
        DictdDictionary(tmp_path / "freedict-eng-fra")


def test_entry_translations_drop_grammar_domains_and_parentheses() -> None:
    entry = "refund /x/ <v>\neine (bereits bezahlte) Summe erstatten, vergüten <v, trans> [fin.]\n" \
            '      "example"  - Beispiel\n see: {refunds}\n'
    assert entry_translations(entry) == ["eine Summe erstatten", "vergüten"]


def test_base_forms_strip_plural_and_verb_endings() -> None:
    assert base_forms("interpreters")[:2] == ["interpreters", "interpreter"]
    assert "ferry" in base_forms("ferries") and "stop" in base_forms("stopped")


def test_vocabulary_forms_find_inflections_and_compounds_by_frequency() -> None:
    vocab = Vocabulary({"sehtests": 2, "fahrrad": 1, "leihfahrrad": 5, "dolmetschers": 3, "rad": 1,
                        "motorrad": 4})
    assert vocab.forms("fahrrad") == ["fahrrad", "leihfahrrad"]
    assert vocab.forms("sehtest") == ["sehtests"]
    assert vocab.forms("dolmetscher") == ["dolmetschers"]
    assert vocab.forms("rad") == ["rad"]  # too short to be a compound part


def test_phrase_translation_wins_over_its_words(eng_deu: Path) -> None:
    tr = DictionaryTranslator({("en", "de"): DictdDictionary(eng_deu / "freedict-eng-deu")})
    found = tr.translate("Is an eye test covered at the weekend?", "en", "de")
    assert found is not None
    assert found.terms == (("eye test", ("sehtest",)), ("weekend", ("wochenende",)))


def test_translations_the_documents_do_not_use_are_dropped_and_names_kept(eng_deu: Path) -> None:
    tr = DictionaryTranslator({("en", "de"): DictdDictionary(eng_deu / "freedict-eng-deu")})
    vocab = Vocabulary({"fahrrad": 1, "gebühr": 2, "parkgebühren": 1, "acme": 9})
    found = tr.translate("Does ACME refund the fee for bicycles?", "en", "de", vocab)
    assert found is not None
    assert dict(found.terms) == {"fee": ("gebühr", "parkgebühren"), "bicycles": ("fahrrad",)}
    assert found.kept == ("acme",) and found.targets("fee") == ("gebühr", "parkgebühren")


def test_no_dictionary_for_the_pair_translates_nothing(eng_deu: Path) -> None:
    tr = DictionaryTranslator({("en", "de"): DictdDictionary(eng_deu / "freedict-eng-deu")})
    assert tr.translate("Is an eye test covered?", "en", "fr") is None


def test_dictionaries_are_found_by_freedict_name(eng_deu: Path) -> None:
    (eng_deu / "freedict-xxx-deu.index").write_text("", encoding="utf-8")
    assert set(find_dictionaries(eng_deu)) == {("en", "de")}


def test_without_dictionaries_it_says_so_once_and_does_not_translate(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    _, store, _ = build(tmp_path, tmp_path)
    with caplog.at_level(logging.WARNING):
        assert make_cross_language(store, tmp_path / "none", 4) is None
    assert [r.message for r in caplog.records if "dict-freedict" in r.message]


def translator(folder: Path) -> DictionaryTranslator:
    """The English→German translator over the test dictionary in ``folder``."""
    return DictionaryTranslator({("en", "de"): DictdDictionary(folder / "freedict-eng-deu")})


@pytest.fixture()
def german_policies(tmp_path: Path) -> Path:
    root = tmp_path / "policies"
    (root / "de").mkdir(parents=True)
    (root / "de/reise.md").write_text(
        "# Reiseversicherung\n\n## Sehhilfen\n\nEin Sehtest beim Optiker wird einmal im Kalenderjahr bis "
        "höchstens CHF 80 erstattet. Brillengläser werden nicht übernommen.\n\n"
        "## Dolmetscher\n\nBenötigt die versicherte Person einen Dolmetscher für ein Gespräch mit der "
        "Polizei, so werden dessen Kosten bis zu einem Betrag von CHF 400 übernommen.\n\n## Fahrräder\n\nEin "
        "gestohlenes Fahrrad ist bis höchstens CHF 1500 versichert, sofern es abgeschlossen war.\n",
        encoding="utf-8")
    return root


def test_english_question_finds_the_german_passage_through_the_dictionary(
        tmp_path: Path, german_policies: Path, eng_deu: Path) -> None:
    indexer, store, factory = build(tmp_path, german_policies)
    indexer.reconcile()
    settings = RetrievalSettings(top_k=3, candidates=10, legs=("keyword",))
    question = "Does my travel insurance pay for an eye test at the weekend?"
    plain = HybridRetriever(store, factory.embedder, settings).retrieve(question, scope=["de/**"])
    assert not plain.chunks  # no English word of the question is in the German text
    cross = CrossLanguage(store, translator(eng_deu))
    retriever = HybridRetriever(store, factory.embedder, settings, cross=cross)
    result = retriever.retrieve(question, scope=["de/**"])
    assert result.chunks and "Sehtest" in result.chunks[0].chunk.text
    assert result.translation is not None and result.translation.targets("eye") == ("sehtest",)


def test_no_dictionary_translation_when_the_documents_share_the_questions_language(
        tmp_path: Path, eng_deu: Path) -> None:
    root = tmp_path / "policies"
    root.mkdir()
    (root / "leave.md").write_text("# Leave\n\nEmployees get twenty-five days of paid leave each calendar "
                                   "year; unused days lapse at the end of March.\n", encoding="utf-8")
    indexer, store, factory = build(tmp_path, root)
    indexer.reconcile()
    cross = CrossLanguage(store, translator(eng_deu))
    result = HybridRetriever(store, factory.embedder, RetrievalSettings(), cross=cross).retrieve(
        "How many days of paid leave do I get at the weekend?")
    assert result.translation is None


def test_a_scope_larger_than_the_bound_is_searched_without_translation(
        tmp_path: Path, german_policies: Path, eng_deu: Path) -> None:
    indexer, store, factory = build(tmp_path, german_policies)
    indexer.reconcile()
    settings = RetrievalSettings(top_k=3, candidates=10, legs=("keyword",))
    cross = CrossLanguage(store, translator(eng_deu), max_scope_chunks=1)
    result = HybridRetriever(store, factory.embedder, settings, cross=cross).retrieve(
        "Does my travel insurance pay for an eye test at the weekend?", scope=["de/**"])
    assert result.translation is None


def test_chunks_found_through_the_translation_keep_their_page_breaks(tmp_path: Path, eng_deu: Path) -> None:
    """A PDF chunk found through the dictionary translation carries its ``page_breaks`` (the page of
    each quoted sentence is read from them), like a chunk the keyword and vector legs find."""
    text = "Sehhilfen sind wie folgt versichert:\na) ein Sehtest beim Optiker bis CHF 80."
    chunk = replace(make_chunk("reise.pdf", text, page=5), page_end=6,
                    page_breaks=((text.index("a) ein"), 6),))
    store, emb = new_store(tmp_path), FakeEmbedder()
    store.replace_chunks("reise.pdf", [chunk], emb.embed([text]))
    store.put_document(DocumentRecord("reise.pdf", "sha", 1, 1, "fp", "indexed", chunk_count=1,
                                      language="de"))
    query = CrossLanguage(store, translator(eng_deu)).translate("Is an eye test covered?", ["reise.pdf"])
    assert query is not None
    ((found, _),) = query.search(3)
    assert found.page_breaks == chunk.page_breaks
