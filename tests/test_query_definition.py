"""A definition question keeps the pooled chunk that defines its term (core.query.definition)."""

from __future__ import annotations

from core.query.definition import with_definition
from core.types import ScoredChunk
from tests.retrieval_helpers import scored

GLOSSARY = ("Premiums are due on the first day of the month.\n"
            "4.7 Clinic means a place registered with the health authority for out-patient care.")
USES = "A clinic visit is paid up to EUR 50."


def _kept() -> list[ScoredChunk]:
    return [scored(USES, 0.8, path="g.pdf", ordinal=1), scored("Dental care is excluded.", 0.6, path="g.pdf",
                                                                 ordinal=2)]


def test_the_pooled_chunk_defining_the_term_is_put_first() -> None:
    pool = [scored(GLOSSARY, 0.9, path="g.pdf", ordinal=0), *_kept()]
    out = with_definition("How does the plan define a 'Clinic'?", pool, _kept())
    assert out[0].chunk.text == GLOSSARY and out[0].scores["definition"] == 1.0 and len(out) == 3


def test_a_question_asking_no_definition_keeps_the_reranked_chunks() -> None:
    pool = [scored(GLOSSARY, 0.9, path="g.pdf", ordinal=0), *_kept()]
    out = with_definition("How much is a clinic visit paid?", pool, _kept())
    assert [sc.chunk.text for sc in out] == [sc.chunk.text for sc in _kept()]


def test_no_chunk_is_added_when_none_defines_the_term() -> None:
    pool = [scored("Clinics must be registered.", 0.9, path="g.pdf", ordinal=0), *_kept()]
    out = with_definition("How does the plan define a 'Clinic'?", pool, _kept())
    assert len(out) == 2
