"""Document-scope detection: name variants from file names and title text, and detect_scope on the
real corpus's first pages with the qa_dev questions."""

from __future__ import annotations

from pathlib import Path

import docx
import pytest
import yaml
from pypdf import PdfReader

from core.embedder import FakeEmbedder
from core.query.doc_scope import (
    TITLE_CHUNKS,
    DocumentCatalog,
    build_catalog,
    detect_scope,
    restrict,
    titles_from_chunk_rows,
)
from core.query.names import path_variants, title_lines, title_variants
from tests.retrieval_helpers import add_document, new_store

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"
TITLE_PAGES = 3  # an overview names the products it compares on its first content page
TITLE_CHARS = 2500  # ~ TITLE_CHUNKS chunks of 256 tokens


def first_pages_text(path: Path) -> str:
    """Title text like the indexer's first chunks: the first pages (PDF) or paragraphs (DOCX/MD)."""
    if path.suffix == ".pdf":
        reader = PdfReader(path)
        if reader.is_encrypted:
            reader.decrypt("")
        text = ""
        for page in reader.pages[:TITLE_PAGES]:  # about as much text as the first three chunks
            text += (page.extract_text() or "") + "\n"
            if len(text) >= TITLE_CHARS:
                break
        return text[:4000]
    if path.suffix == ".docx":
        return "\n".join(p.text for p in docx.Document(str(path)).paragraphs[:40])
    return path.read_text(encoding="utf-8")[:4000]


@pytest.fixture(scope="module")
def corpus_titles() -> list[tuple[str, str]]:
    files = [p for p in sorted(CORPUS.rglob("*")) if p.suffix in {".pdf", ".docx", ".md"}
             and "broken" not in p.parts and p.name != "MANIFEST.md"]
    return [(p.relative_to(CORPUS).as_posix(), first_pages_text(p)) for p in files]


@pytest.fixture(scope="module")
def corpus_catalog(corpus_titles: list[tuple[str, str]]) -> DocumentCatalog:
    return build_catalog(corpus_titles)


@pytest.fixture(scope="module")
def qa() -> dict[str, dict[str, object]]:
    items = yaml.safe_load((CORPUS / "qa_dev.yaml").read_text(encoding="utf-8"))
    return {item["id"]: item for item in items}


# --- name variants ---------------------------------------------------------------------------------

def test_file_name_variants_drop_uin_codes_and_noise() -> None:
    assert path_variants("hard/EDLHLGA23009V012223_restricted.pdf") == set()
    assert path_variants("arogya_sanjeevani.pdf") == {("arogya", "sanjeevani")}


def test_file_name_acronym_and_camelcase_are_single_word_names() -> None:
    assert ("css",) in path_variants("nonenglish/CSS_Reiseversicherung_AVB_2016_de.pdf")
    assert ("perksplu",) in path_variants("hard/PerksPlus_scanned.pdf")


def test_generic_file_name_gives_no_name() -> None:
    assert path_variants("policy.pdf") == set()


def test_title_lines_stop_at_prose() -> None:
    text = ("ACME Insurance Limited\nGolden Shield\nPolicy Wording\nThis policy is a contract between us\n"
            "Air Ambulance")
    assert title_lines(text) == ["ACME Insurance Limited", "Golden Shield", "Policy Wording"]


def test_company_line_gives_brand_and_generic_lines_give_nothing() -> None:
    text = "Edelweiss General Insurance Company Limited,\nPolicy Wordings\nHealth Insurance"
    variants = title_variants(text)
    assert variants == {("edelweiss",)}


# --- catalog and detection (synthetic) ----------------------------------------------------------------

TWO_DOCS = [("a/golden.pdf", "Golden Shield\nPolicy Wording"), ("b/easy.pdf", "EASY HEALTH")]


def test_generic_words_never_scope() -> None:
    catalog = build_catalog(TWO_DOCS)
    assert detect_scope("What does the health insurance policy plan cover?", catalog) is None


def test_name_maps_to_its_document() -> None:
    catalog = build_catalog(TWO_DOCS)
    assert detect_scope("Is dental covered under easy health?", catalog) == ["b/easy.pdf"]


def test_name_also_covers_documents_that_mention_it_in_their_title_text() -> None:
    catalog = build_catalog([("hr/plus.pdf", "Northwind Health Plus Plan"),
                             ("hr/options.pdf", "Benefit Packages\nWe offer Northwind Health Plus.")])
    assert detect_scope("Northwind Health Plus deductible?", catalog) == ["hr/options.pdf", "hr/plus.pdf"]


def test_name_of_too_many_documents_is_dropped() -> None:
    titles = [(f"hr/doc{i}.pdf", "Contoso Electronics\nSomething") for i in range(4)]
    catalog = build_catalog(titles, max_docs=3)
    assert detect_scope("What does Contoso Electronics offer?", catalog) is None


def test_two_named_policies_give_both() -> None:
    catalog = build_catalog([("arogya_sanjeevani.pdf", ""), ("family_medicare.pdf", "")])
    assert detect_scope("Compare Arogya Sanjeevani and Family Medicare cataract limits",
                        catalog) == ["arogya_sanjeevani.pdf", "family_medicare.pdf"]


def test_titles_from_chunk_rows_keeps_first_chunks_in_order() -> None:
    rows = [{"path": "a.pdf", "ordinal": 1, "text": "second"},
            {"path": "a.pdf", "ordinal": 0, "text": "first"},
            {"path": "a.pdf", "ordinal": 5, "text": "late"}]
    assert titles_from_chunk_rows(rows) == [("a.pdf", "first\nsecond")]


def test_catalog_from_real_store_chunk_rows(tmp_path: Path) -> None:
    store, embedder = new_store(tmp_path), FakeEmbedder()
    add_document(store, embedder, "insurance/ICI123.pdf",
                 ["Golden Shield\nPolicy Wording", "Definitions", "Room rent", "Golden Harvest mention"])
    add_document(store, embedder, "insurance/HDF456.pdf", ["EASY HEALTH\nPreamble", "Cover"])
    rows = store.chunk_rows(where=f"ordinal < {TITLE_CHUNKS}", columns=["path", "ordinal", "text"])
    catalog = build_catalog(titles_from_chunk_rows(rows))
    assert detect_scope("Is there a co-payment in Golden Shield?", catalog) == ["insurance/ICI123.pdf"]
    assert detect_scope("What about Golden Harvest?", catalog) is None  # chunk 3 is not title text


def test_restrict_never_widens_channel_scope() -> None:
    assert restrict(["hr/**"], ["insurance/x.pdf"], allowed=["hr/a.pdf"]) == ["hr/**"]
    assert restrict(["**"], ["hr/a.pdf"], allowed=["hr/a.pdf", "hr/b.pdf"]) == ["hr/a.pdf"]
    assert restrict(["**"], None, allowed=["hr/a.pdf"]) == ["**"]


# --- real corpus ----------------------------------------------------------------------------------------

NAMED = ["golden-01", "dev-01", "dev-03", "dev-06", "dev-08", "dev-09", "dev-11", "dev-13", "dev-14"]
GENERIC = ["golden-02", "golden-03", "golden-04", "golden-05", "golden-06", "golden-07", "golden-08",
           "golden-09", "golden-10", "dev-07", "dev-10", "dev-12", "dev-15"]


@pytest.mark.parametrize("item_id", NAMED)
def test_question_naming_a_product_maps_to_its_file(
    item_id: str, corpus_catalog: DocumentCatalog, qa: dict[str, dict[str, object]]
) -> None:
    item = qa[item_id]
    gold = sorted({s["file"] for s in item["sources"]})  # type: ignore[attr-defined]
    assert detect_scope(str(item["question"]), corpus_catalog) == gold


@pytest.mark.parametrize("item_id", GENERIC)
def test_question_naming_no_product_stays_corpus_wide(
    item_id: str, corpus_catalog: DocumentCatalog, qa: dict[str, dict[str, object]]
) -> None:
    assert detect_scope(str(qa[item_id]["question"]), corpus_catalog) is None


def test_plan_name_shared_by_two_documents_keeps_both(
    corpus_catalog: DocumentCatalog, qa: dict[str, dict[str, object]]
) -> None:
    scope = detect_scope(str(qa["dev-05"]["question"]), corpus_catalog)
    assert scope is not None and "hr/Contoso_Benefit_Options.pdf" in scope


def test_insurer_and_product_names_agree(corpus_catalog: DocumentCatalog) -> None:
    catalog = corpus_catalog
    for question in ("Edelweiss Well Baby Well Mother cover?", "ICICI Lombard Golden Shield co-pay?",
                     "Bajaj Allianz Global Health Care limits?", "Is there a sabbatical at 37signals?"):
        scope = detect_scope(question, catalog)
        assert scope is not None and len(scope) == 1, question


def test_a_name_buried_in_a_header_line_is_found_in_the_title_text() -> None:
    header = ("Premises No. 18-0374, Plot no. CBD-81, Page 1 of 25 National Parivar Mediclaim Plus Policy "
              "UIN: X")
    catalog = build_catalog([("policy.pdf", header), ("other.pdf", "Arogya Sanjeevani Policy\nPreamble")])
    question = "Under the National Parivar Mediclaim Plus Policy, how much hospital cash is paid?"
    assert detect_scope(question, catalog) == ["policy.pdf"]


def test_a_question_without_product_names_stays_unscoped_by_the_title_fallback() -> None:
    title = "Premises No. 18, Page 1 National Parivar Mediclaim Plus Policy"
    catalog = build_catalog([("policy.pdf", title)])
    assert detect_scope("How much hospital cash is paid per day?", catalog) is None
