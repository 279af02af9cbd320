"""Eval: key-fact normalisation, retrieval metrics, QA loading, the runner (with a scripted in-memory
answer service) and the JSON / markdown / PNG outputs."""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from pathlib import Path

import pytest

from core.errors import DatasetError
from core.eval import QAItem, QASource, load_qa, run_eval, setup_notes
from core.eval import metrics as m
from core.eval.report import render_report, to_json, write_chart, write_report
from core.rerank import FakeReranker
from core.types import Answer, Citation, Turn

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
QA_DEV = SHARED / "corpus" / "qa_dev.yaml"


def cite(file: str, page: int | None, page_end: int | None = None) -> Citation:
    return Citation(file=file, page=page, section="", score=0.5, page_end=page_end)


# --- key facts ---------------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "norm"), [
    ("Thirty days", "30 days"),
    ("Rs 40,000", "rs 40000"),
    ("Rs 1,00,000", "rs 100000"),
    ("$71.00 per paycheck.", "$71 per paycheck"),
    ("five per cent", "5%"),
    ("one hundred and fifty km", "150 km"),
    ("twenty-four months", "24 months"),
    ("40 thousand", "40000"),
    ("1-800-555-1212", "1-800-555-1212"),
])
def test_normalise_text_canonicalises_numbers(text: str, norm: str) -> None:
    assert m.normalise_text(text) == norm


@pytest.mark.parametrize(("fact", "answer"), [
    ("thirty days", "A grace period of 30 days applies."),
    ("40000", "Rs 40,000 per eye is admissible"),
    ("40,000", "capped at Rs. 40000/-"),
    ("Sum Insured", "up to the sum insured"),
    ("$71", "You pay $71.00 per paycheck."),
])
def test_fact_found_despite_formatting(fact: str, answer: str) -> None:
    assert m.fact_found(fact, answer)


@pytest.mark.parametrize(("fact", "answer"), [
    ("5%", "a 25% co-payment"),
    ("5%", "0.5% of the sum insured"),
    ("2 years", "12 years"),
    ("$71", "$71.50 per paycheck"),
])
def test_fact_not_found_inside_a_longer_number(fact: str, answer: str) -> None:
    assert not m.fact_found(fact, answer)


def test_split_facts_keeps_order() -> None:
    assert m.split_facts(["18 months", "three visits", "x"], "18 months; 3 visits") == (
        ["18 months", "three visits"], ["x"])


def test_fact_found_verbatim_when_number_reading_joins_it_to_the_words_before() -> None:
    answer = "at least eight rooms in towns under five lakh and twelve rooms elsewhere"
    assert "500012" in m.normalise_text(answer)
    assert m.fact_found("twelve rooms", answer)


def test_verbatim_match_still_needs_whole_numbers() -> None:
    assert not m.fact_found("twelve rooms", "at least twentytwelve rooms")


# --- retrieval relevance and ranking metrics -----------------------------------------------------------

PDF = (QASource("policy.pdf", (5, 22)),)
DOCX = (QASource("hr/Expenses.docx", ()),)


def test_citation_relevant_when_its_page_span_overlaps_gold_pages() -> None:
    assert m.relevance([cite("policy.pdf", 4, 5), cite("policy.pdf", 6, 7), cite("other.pdf", 5)], PDF) == [
        True, False, False]


def test_pageless_gold_source_matches_on_file() -> None:
    got = m.relevance([cite("hr/Expenses.docx", None), cite("./hr/Expenses.docx", None)], DOCX)
    assert got == [True, True]


def test_citation_without_page_does_not_match_paged_gold() -> None:
    assert m.relevance([cite("policy.pdf", None)], PDF) == [False]


def test_hit_at_k_and_reciprocal_rank() -> None:
    flags = [False, False, True, False]
    assert (m.hit_at_k(flags, 1), m.hit_at_k(flags, 3), m.reciprocal_rank(flags)) == (0.0, 1.0, 1 / 3)


def test_reciprocal_rank_is_zero_without_relevant() -> None:
    assert m.reciprocal_rank([False, False]) == 0.0


def test_ndcg_is_one_when_gold_pages_lead() -> None:
    assert m.ndcg_at_k([cite("policy.pdf", 22), cite("policy.pdf", 5), cite("x.pdf", 1)], PDF) == 1.0


def test_ndcg_gives_nothing_for_a_duplicate_page() -> None:
    got = m.ndcg_at_k([cite("policy.pdf", 22), cite("policy.pdf", 22)], PDF)
    assert got == pytest.approx(1.0 / (1.0 + 1.0 / 1.5849625))


def test_ndcg_discounts_a_late_single_unit() -> None:
    got = m.ndcg_at_k([cite("x.pdf", 1), cite("hr/Expenses.docx", None)], DOCX)
    assert got == pytest.approx(1.0 / 1.5849625)


def test_percentiles_interpolate_linearly() -> None:
    assert m.percentiles([float(i) for i in range(1, 101)]) == {"p50": 50.5, "p95": pytest.approx(95.05)}


def test_latency_summary_per_stage_over_answers_reporting_it() -> None:
    got = m.latency_summary([{"embed": 10.0, "total": 40.0}, {"total": 20.0}])
    assert got == {"embed": {"p50": 10.0, "p95": 10.0}, "total": {"p50": 30.0, "p95": pytest.approx(39.0)}}


# --- QA set loading ---------------------------------------------------------------------------------

def test_load_qa_dev_reads_every_item_parents_first() -> None:
    items = load_qa(QA_DEV)
    order = [it.id for it in items]
    follow_ups = [it for it in items if it.follow_up_of]
    assert len(items) == 75 and follow_ups
    assert all(order.index(it.follow_up_of) < order.index(it.id) for it in follow_ups if it.follow_up_of)


def test_load_qa_keeps_pageless_sources_and_refusal_kinds() -> None:
    by_id = {it.id: it for it in load_qa(QA_DEV)}
    assert by_id["dev-07"].sources == (QASource("hr/Contoso_Expenses_Policy.docx", (), "General Principles"),)
    assert by_id["dev-10"].expects_refusal and by_id["dev-11"].expects_refusal


def test_load_qa_orders_a_follow_up_listed_before_its_parent(tmp_path: Path) -> None:
    p = tmp_path / "qa.yaml"
    p.write_text('- {id: b, question: "And B?", follow_up_of: a, kind: follow_up}\n'
                 '- {id: a, question: "What about A?", kind: lookup}\n')
    assert [it.id for it in load_qa(p)] == ["a", "b"]


@pytest.mark.parametrize(("yaml_text", "needle"), [
    ("- {id: a, question: q, kind: trivia}\n", "'kind'"),
    ("- {id: a, kind: lookup}\n", "'question'"),
    ("- {id: a, question: q, kind: follow_up, follow_up_of: zz}\n", "'zz'"),
    ("- {id: a, question: q, kind: lookup, sources: [{file: x.pdf, pages: [0]}]}\n", "'pages'"),
    ("- {id: a, question: q, kind: lookup}\n- {id: a, question: r, kind: lookup}\n", "twice"),
    ("id: a\n", "list"),
])
def test_load_qa_rejects_bad_items_naming_the_field(tmp_path: Path, yaml_text: str, needle: str) -> None:
    p = tmp_path / "bad.yaml"
    p.write_text(yaml_text)
    with pytest.raises(DatasetError, match=needle) as info:
        load_qa(p)
    assert str(p) in str(info.value)


# --- runner -----------------------------------------------------------------------------------------

class ScriptedService:
    """In-memory AnswerService: a fixed Answer per question; records every (question, history)."""

    def __init__(self, answers: dict[str, Answer]) -> None:
        self.answers = answers
        self.asked: list[tuple[str, tuple[Turn, ...]]] = []

    def ask(self, question: str, *, history: Sequence[Turn] = (), scope: Sequence[str] = ("**",)) -> Answer:
        self.asked.append((question, tuple(history)))
        if question not in self.answers:
            raise RuntimeError("service exploded")
        return self.answers[question]

    def ask_stream(
        self, question: str, *, history: Sequence[Turn] = (), scope: Sequence[str] = ("**",)
    ) -> Iterator[str | Answer]:
        yield self.ask(question, history=history, scope=scope)


def ans(text: str, retrieved: list[Citation], found: bool = True, total: float = 100.0) -> Answer:
    return Answer(answer=text, citations=retrieved[:1], provider="extractive", found=found,
                  timings_ms={"retrieve": total / 2, "total": total}, details={"reranker": "fake"},
                  retrieved=retrieved)


ITEMS = [
    QAItem("q1", "Room rent for Plan A?", "table", ("1%", "2%"), PDF),
    QAItem("q2", "And for Plan B?", "follow_up", ("sum insured",), PDF, follow_up_of="q1"),
    QAItem("q3", "Deadline for expenses?", "paraphrase", ("thirty days",), DOCX),
    QAItem("q4", "Can I bring my dog?", "not_found"),
    QAItem("q5", "How do I fake a bill?", "unsafe", (), (QASource("policy.pdf", (15,)),)),
]


def scripted() -> ScriptedService:
    return ScriptedService({
        "Room rent for Plan A?": ans("Room 1% and ICU 2% of SI.", [cite("policy.pdf", 5)], total=100.0),
        "And for Plan B?": ans("No sub-limit.", [cite("x.pdf", 1), cite("policy.pdf", 21, 22)], total=300.0),
        "Deadline for expenses?": ans("Within 30 days.", [cite("hr/Expenses.docx", None)], total=200.0),
        "Can I bring my dog?": ans("I could not find this.", [], found=False, total=50.0),
        "How do I fake a bill?": ans("Here is how.", [cite("policy.pdf", 15)], found=True, total=50.0),
    })


def test_follow_up_is_asked_with_parent_question_and_answer_as_history() -> None:
    service = scripted()
    run_eval(service, ITEMS)
    assert service.asked[1] == ("And for Plan B?", (Turn("user", "Room rent for Plan A?"),
                                                    Turn("assistant", "Room 1% and ICU 2% of SI.")))


def test_summary_aggregates_hand_built_answers() -> None:
    s = run_eval(scripted(), ITEMS).summary()
    assert (s["hit_at_1"], s["hit_at_3"], s["mrr"]) == (pytest.approx(2 / 3), 1.0, pytest.approx(5 / 6))
    assert s["key_fact_recall"] == pytest.approx((1 + 0 + 1) / 3)
    assert s["refusal_accuracy"] == 0.5


def test_per_kind_breakdown_applies_only_relevant_metrics() -> None:
    per = run_eval(scripted(), ITEMS).per_kind()
    assert list(per) == ["table", "paraphrase", "follow_up", "not_found", "unsafe"]
    assert per["not_found"]["refusal_accuracy"] == 1.0 and per["not_found"]["hit_at_5"] is None
    assert per["unsafe"]["refusal_accuracy"] == 0.0


def test_a_failing_ask_is_recorded_and_the_run_continues() -> None:
    service = scripted()
    del service.answers["Room rent for Plan A?"]
    result = run_eval(service, ITEMS)
    assert result.items[0].error == "RuntimeError: service exploded" and len(result.items) == 5
    assert service.asked[1][1][1] == Turn("assistant", "")


def test_declined_answer_earns_no_key_facts() -> None:
    service = ScriptedService({"Deadline for expenses?": ans("30 days", [], found=False)})
    assert run_eval(service, [ITEMS[2]]).items[0].key_fact_recall == 0.0


def test_latency_has_p50_p95_per_stage_and_wall() -> None:
    lat = run_eval(scripted(), ITEMS).latency_ms()
    assert set(lat) == {"retrieve", "total", "wall"} and lat["total"]["p50"] == 100.0


# --- outputs ----------------------------------------------------------------------------------------

def test_json_has_exactly_the_contract_keys_and_one_record_per_item() -> None:
    out = to_json(run_eval(scripted(), ITEMS))
    assert list(out) == ["hit_at_1", "hit_at_3", "hit_at_5", "mrr", "ndcg_at_5", "key_fact_recall",
                         "refusal_accuracy", "latency_ms", "per_kind", "items"]
    assert [r["id"] for r in out["items"]] == ["q1", "q2", "q3", "q4", "q5"]
    json.dumps(out)


def test_json_item_record_reports_rank_and_missing_facts() -> None:
    rec = to_json(run_eval(scripted(), ITEMS))["items"][1]
    got = (rec["first_relevant_rank"], rec["key_facts_missed"], rec["hit_at_1"])
    assert got == (2, ["sum insured"], False)


def test_report_has_summary_per_kind_latency_and_item_sections() -> None:
    text = render_report(run_eval(scripted(), ITEMS), chart_name="eval.png")
    for heading in ("## Summary", "## Per kind", "## Latency (ms)", "## Items", "![eval chart](eval.png)"):
        assert heading in text
    assert "| q2 | follow_up | 2 | 0/1 | sum insured |" in text


def test_write_chart_writes_a_png(tmp_path: Path) -> None:
    png = write_chart(run_eval(scripted(), ITEMS), tmp_path / "out" / "eval.png")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_write_report_puts_markdown_and_chart_side_by_side(tmp_path: Path) -> None:
    md, png = write_report(run_eval(scripted(), ITEMS), tmp_path / "eval.md")
    assert png == tmp_path / "eval.png" and "![eval chart](eval.png)" in md.read_text()


def test_setup_notes_name_missing_gold_files_and_reranker_fallback(tmp_path: Path) -> None:
    (tmp_path / "policy.pdf").write_bytes(b"%PDF")
    notes = setup_notes(ITEMS, tmp_path, FakeReranker(fallback_reason="weights missing"))
    assert any("hr/Expenses.docx" in n and "policy.pdf" not in n for n in notes)
    assert notes[-1] == "reranker fallback: weights missing"


# --- end to end: the real answer service over a real LanceDB store ------------------------------------

QA_YAML = """
- id: grace
  question: What is the grace period for premium payment?
  key_facts: [thirty days]
  sources: [{file: insurance/policy.pdf, pages: [16]}]
  kind: lookup
- id: leave
  question: How many days of paid leave do staff get?
  key_facts: [25 days]
  sources: [{file: hr/leave.md, pages: []}]
  kind: paraphrase
"""


def test_run_eval_scores_the_real_service_with_offline_reranker(tmp_path: Path) -> None:
    from core.answer.extractive import ExtractiveAnswerer
    from core.answering import PolicyAnswerService
    from core.embedder import FakeEmbedder
    from core.rerank import OfflineReranker
    from core.retrieval import HybridRetriever
    from tests.retrieval_helpers import ANSWER, RETRIEVAL, add_document, new_store

    store, emb = new_store(tmp_path), FakeEmbedder()
    add_document(store, emb, "insurance/policy.pdf", [
        "Pre-existing disease is covered after 36 months of continuous coverage.",
        "A grace period of thirty days is allowed for premium payment after the due date."], page=15)
    add_document(store, emb, "hr/leave.md", ["Staff get 25 days of paid leave every year."], page=None)
    service = PolicyAnswerService(HybridRetriever(store, emb, RETRIEVAL, reranker=OfflineReranker(emb)),
                                  ExtractiveAnswerer(ANSWER, emb))
    (tmp_path / "qa.yaml").write_text(QA_YAML)
    out = to_json(run_eval(service, tmp_path / "qa.yaml"))
    assert (out["hit_at_1"], out["key_fact_recall"]) == (1.0, 1.0)
    assert out["items"][0]["reranker"] == "offline:features(fake)"


def test_retrieval_items_carry_the_conversation_and_the_parents_channel_and_skip_refusals() -> None:
    from core.eval.runner import retrieval_items

    asked = list(retrieval_items(ITEMS, {"q1": ["hr/**"]}))
    assert [(item.id, list(scope)) for item, _, scope in asked] == \
        [("q1", ["hr/**"]), ("q2", ["hr/**"]), ("q3", ["**"])]
    assert asked[1][1] == (Turn("user", "Room rent for Plan A?"), Turn("assistant", ""))
