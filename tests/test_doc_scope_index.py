"""Document scoping's title fallback through the title-word index gives the same documents as the scan
of every title it replaced (core/query/title_index.py), over many generated titles and questions."""

from __future__ import annotations

import random
import re
from collections import defaultdict

import pytest

from core.query.doc_scope import (
    MAX_DOCS_PER_NAME,
    DocumentCatalog,
    _named_in_titles,
    build_catalog,
    build_catalogs,
)
from core.query.exact import extract_terms
from core.query.text import normalise_numbers
from core.query.title_index import TitleWords, anchored_search, name_anchors

WORDS_TEXT = """care shield golden plus health secure family medi claim super top up star group travel
assure life guard smart total wellness benefit premier elite basic prime saver flexi
healthcare carefree shielded goldenrod topup twenty five thousand première élan"""
WORDS = WORDS_TEXT.split()


def scanned(question: str, catalog: DocumentCatalog, max_docs: int = MAX_DOCS_PER_NAME) -> list[str] | None:
    """The title fallback as shipped before the index (the reference): every title tested per name."""
    names = [t for t in extract_terms(question) if t.slot == "name" and len(t.text.split()) >= 2]
    if not names:
        return None
    normalised = {p: normalise_numbers(t) for p, t in catalog.titles.items()}
    lowered = {p: f"{t}\n{normalised[p]}".lower() for p, t in catalog.titles.items()}
    hits: dict[str, int] = defaultdict(int)
    for term in names:
        words = [w.lower() for w in re.findall(r"[^\W_]+", term.text)]
        need = min(2, len(words))
        for path, text in catalog.titles.items():
            if sum(w in lowered[path] for w in words) >= need and term.found_in(normalised[path], text):
                hits[path] += 1
    best = max(hits.values(), default=0)
    paths = sorted(p for p, n in hits.items() if n == best) if best else []
    return None if not paths or len(paths) > max_docs else paths


def title(rng: random.Random) -> str:
    """A header-like title text: capitalised words, sometimes numbers and a second line of prose."""
    words = [rng.choice(WORDS) for _ in range(rng.randint(2, 6))]
    head = " ".join(w.capitalize() if rng.random() < 0.8 else w for w in words)
    if rng.random() < 0.3:
        head += f" {rng.choice(['2024', 'Rs 5,00,000', 'five lakh', 'V2'])}"
    tail = " ".join(rng.choice(WORDS) for _ in range(rng.randint(0, 12)))
    return f"{head}\n{tail}" if tail else head


def question(rng: random.Random) -> str:
    """A question naming 1–2 products of 2–3 capitalised words (or none)."""
    names = [" ".join(rng.choice(WORDS).capitalize() for _ in range(rng.randint(2, 3)))
             for _ in range(rng.randint(0, 2))]
    return f"What does {' and '.join(names) or 'the policy'} pay for a day in hospital?"


@pytest.mark.parametrize("seed", range(4))
def test_index_finds_the_same_documents_as_the_scan(seed: int) -> None:
    rng = random.Random(seed)
    titles = [(f"docs/d{i:04d}.pdf", title(rng)) for i in range(600)]
    catalog = DocumentCatalog({}, tuple(p for p, _ in titles), dict(titles))
    questions = [question(rng) for _ in range(150)]
    results = [(_named_in_titles(q, catalog), scanned(q, catalog)) for q in questions]
    assert all(new == old for new, old in results)
    assert sum(old is not None for _, old in results) >= 10  # the fallback did scope some questions


def test_built_catalog_uses_the_index_on_its_titles() -> None:
    catalog = build_catalog([("a.pdf", "Header line\nGolden Shield Plus booklet"), ("b.pdf", "Other text")])
    assert _named_in_titles("Does Golden Shield Plus cover it?", catalog) == ["a.pdf"]
    assert "title_words" in catalog.cache


def test_substring_of_a_title_token_counts_like_the_scan() -> None:
    index = TitleWords.build({"a.pdf": "Healthcare Shielded", "b.pdf": "Health Shield"})
    assert index.holding(["health", "shield"], 2) == ["a.pdf", "b.pdf"]
    assert index.holding(["care", "shield"], 2) == ["a.pdf"]


def test_a_word_that_is_not_one_run_falls_back_to_the_scan() -> None:
    index = TitleWords.build({"a.pdf": "i\u0307stanbul plan", "b.pdf": "istanbul plan"})
    assert index.containing("i\u0307stanbul") == frozenset({"a.pdf"})


def test_the_family_catalog_reuses_the_names_looked_up_by_the_document_catalog() -> None:
    catalog, families = build_catalogs([("a.pdf", "Header line\nGolden Shield Plus booklet"), ("b.pdf", "x")],
                                       (MAX_DOCS_PER_NAME, 2))
    assert _named_in_titles("Does Golden Shield Plus cover it?", catalog) == ["a.pdf"]
    assert families.cache["title_words"] is catalog.cache["title_words"]
    assert _named_in_titles("Does Golden Shield Plus cover it?", families) == ["a.pdf"]


def test_a_name_tried_only_where_its_words_occur_matches_as_the_whole_search() -> None:
    rng = random.Random(7)
    checked = matched = 0
    for _ in range(300):
        terms = [t for t in extract_terms(question(rng)) if t.slot == "name"]
        text = title(rng)
        for term in terms:  # half the texts hold a name, its words joined in another way
            if rng.random() < 0.5:
                text += " x" + rng.choice([" ", "-", "", " - ", "_", "'"]).join(term.text.split()) + " y"
        text = normalise_numbers(text)
        for term in terms:
            anchors = name_anchors(term)
            assert anchors is not None
            whole = term.pattern.search(text) is not None
            assert anchored_search(term.pattern, anchors, text) == whole
            checked, matched = checked + 1, matched + whole
    assert checked > 100 and matched > 30
