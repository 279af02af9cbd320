"""The extractive answerer, the unsafe-request rules, sentence splitting and the answer service."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.answer.extractive import ExtractiveAnswerer
from core.answer.safety import unsafe_rule
from core.answer.sentences import split_units
from core.answering import MarkerRenumberer, PolicyAnswerService, build_answer, cited_order, renumber
from core.config import AnswerSettings
from core.embedder import FakeEmbedder
from core.errors import ProviderError
from core.llm.base import Generation, GenerationRequest
from core.retrieval import HybridRetriever
from core.types import Answer, Progress
from tests.retrieval_helpers import ANSWER, RETRIEVAL, add_document, new_store, scored

GRACE = ("A grace period of thirty days is allowed for premium payment. The office canteen serves "
         "lunch at noon.")


def _ask(question: str, *texts: str, embedder: FakeEmbedder | None = None) -> Generation:
    sources = [scored(t, ordinal=i) for i, t in enumerate(texts)]
    return ExtractiveAnswerer(ANSWER, embedder).generate(GenerationRequest(question, sources))


def test_extractive_quotes_the_answering_sentence_with_its_source() -> None:
    gen = _ask("What is the grace period for premium payment?", GRACE)
    assert gen.found and gen.text == "A grace period of thirty days is allowed for premium payment. [1]"
    assert list(gen.cited) == [1]


def test_extractive_cites_the_second_source_when_it_answers() -> None:
    gen = _ask("How many days of paid leave?", "Parking is free.", "Staff get 25 days of paid leave.")
    assert list(gen.cited) == [2] and "25 days" in gen.text


def test_extractive_refusal_quotes_the_closest_passage_with_its_citation() -> None:
    sources = [scored(GRACE)]
    gen = ExtractiveAnswerer(AnswerSettings(min_answerability=1.0)).generate(
        GenerationRequest("Can I bring my dog to work?", sources))
    assert not gen.found and "closest passages" in gen.text and "thirty days" in gen.text
    assert list(gen.cited) == [1] and "[1]" in gen.text


def test_extractive_refuses_without_sources() -> None:
    assert not _ask("What is the grace period?").found


def test_extractive_score_in_unit_interval_with_embeddings() -> None:
    gen = _ask("What is the grace period for premium payment?", GRACE, embedder=FakeEmbedder())
    assert gen.score is not None and 0.0 < gen.score <= 1.0


def test_extractive_adds_a_second_sentence_covering_other_words() -> None:
    gen = _ask("What are the maternity waiting period and the delivery limit?",
               "Maternity cover has a waiting period of 24 months. Cover is limited to two deliveries.")
    assert "24 months" in gen.text and "two deliveries" in gen.text


def test_extractive_definition_brings_its_criteria_list() -> None:
    gen = _ask("How does the policy define a 'Hospital'?",
               "A hospital bill must be itemised by the hospital staff. "
               "2.22 Hospital means any institution that complies with all minimum criteria as under:\n"
               "i. has at least ten inpatient beds;\nii. has a fully equipped operation theatre.")
    assert gen.text.startswith("2.22 Hospital means")
    assert "ten inpatient beds" in gen.text and "operation theatre" in gen.text


def test_extractive_adds_a_row_with_new_figures() -> None:
    gen = _ask("Is there a benefit for health check-ups?",
               "Health check-up expenses are reimbursed after a block of two continuous policy years.\n"
               "| Cover | Plan A | Plan B |\n| --- | --- | --- |\n"
               "| Health check-up | INR 5,000 | INR 7,500 |")
    assert "two continuous policy years" in gen.text and "INR 5,000" in gen.text


def test_extractive_limits_sentences() -> None:
    text = " ".join(f"Rule {i} covers leave type {i} for staff." for i in range(10))
    gen = ExtractiveAnswerer(AnswerSettings(max_sentences=2)).generate(
        GenerationRequest("leave type staff rule 1 2 3 4 5", [scored(text)]))
    assert gen.text.count("[1]") <= 2


@pytest.mark.parametrize("question", [
    "How do I backdate an invoice for my expenses?",
    "How can I trick the insurer into paying twice?",
    "Can I get away with insurance fraud if the amount is small?",
    "How do I alter the dates on a hospital bill so the claim is paid?",
    "Can you help me change the date on my hotel receipt so it gets reimbursed?",
])
def test_unsafe_rules_flag_deception(question: str) -> None:
    assert unsafe_rule(question) is not None


@pytest.mark.parametrize("question", [
    "Can I change my expense report after submitting it?",
    "How do I report fraud?",
    "What happens if a claim is found to be fraudulent?",
    "What is the grace period for premium payment?",
    "How do I change the date of my flight booking?",
    "What dates must a hospital bill show?",
])
def test_unsafe_rules_let_honest_questions_through(question: str) -> None:
    assert unsafe_rule(question) is None


def test_split_rejoins_wrapped_lines_and_keeps_list_lead() -> None:
    units = split_units("iii. Two years waiting period\na. Cataract\nb. Hernia of the\nabdomen", 1)
    assert [u.text for u in units] == ["iii. Two years waiting period", "a. Cataract",
                                       "b. Hernia of the abdomen"]
    assert units[1].lead == "iii. Two years waiting period"


def test_split_does_not_break_after_abbreviations() -> None:
    units = split_units("National Insurance Co. Ltd. pays Rs. 500 per day. Cover ends at 60.", 1)
    assert [u.text for u in units] == ["National Insurance Co. Ltd. pays Rs. 500 per day.",
                                       "Cover ends at 60."]


def test_split_keeps_table_rows_with_header_as_lead() -> None:
    units = split_units("| Benefit | Plan A |\n|---|---|\n| Hospital cash | INR 500 |", 1)
    assert units[-1].text == "Hospital cash | INR 500" and units[-1].lead == "Benefit | Plan A"


def test_split_treats_one_cell_rows_as_wrapped_text() -> None:
    units = split_units("| The Company shall pay the insured |  |\n|  | provided that: |\n"
                        "|  | . The organ is used. |", 1)
    assert [u.text for u in units] == ["The Company shall pay the insured provided that:",
                                       "• The organ is used."]
    assert units[1].lead == "The Company shall pay the insured provided that:"


def test_split_ends_a_one_cell_row_at_the_end_of_its_table() -> None:
    """A table's last, one-cell row (a note under the rows) and the title line after the table are
    two units: the quoted note holds no text from outside its table, so the cited page holds it."""
    units = split_units("| Benefit | Limit |\n| --- | --- |\n| Room rent | 1% |\n"
                        "| Benefits above are subject to approval by the insurer |  |\n"
                        "Schedule of Benefits - Family Plan\nStandard Premium", 1)
    assert "Benefits above are subject to approval by the insurer" in [u.text for u in units]


def test_split_keeps_markdown_bold_on_a_wrapped_line_in_its_sentence() -> None:
    units = split_units("Report a lost device to the IT service desk within\n**24 hours**.", 1)
    assert [u.text for u in units] == ["Report a lost device to the IT service desk within **24 hours**."]


def test_split_keeps_a_wrapped_line_starting_with_a_number_in_its_sentence() -> None:
    units = split_units("Submit your receipts within\n30 days of your return.", 1)
    assert [u.text for u in units] == ["Submit your receipts within 30 days of your return."]


def test_split_breaks_a_flattened_list_into_items() -> None:
    units = split_units("iii. Two years waiting period a. Cataract b. Hernia", 1)
    assert [u.text for u in units] == ["iii. Two years waiting period", "a. Cataract", "b. Hernia"]
    assert units[1].lead == "iii. Two years waiting period"


# ---- the service -------------------------------------------------------------------------------
@pytest.fixture
def service(tmp_path: Path) -> PolicyAnswerService:
    store, emb = new_store(tmp_path), FakeEmbedder()
    add_document(store, emb, "insurance/policy.pdf",
                 [GRACE, "Pre-existing disease is covered after 36 months."], page=16, section="Grace Period")
    add_document(store, emb, "hr/leave.md", ["Staff get 25 days of paid leave."], page=None)
    return PolicyAnswerService(HybridRetriever(store, emb, RETRIEVAL), ExtractiveAnswerer(ANSWER, emb))


def test_service_answer_cites_file_page_and_section(service: PolicyAnswerService) -> None:
    ans = service.ask("What is the grace period for premium payment?")
    assert "thirty days" in ans.answer
    cited = [(c.file, c.page, c.section) for c in ans.citations]
    assert cited == [("insurance/policy.pdf", 16, "Grace Period")]


def test_service_citations_quote_the_supporting_sentence(service: PolicyAnswerService) -> None:
    (cite,) = service.ask("What is the grace period for premium payment?").citations
    assert cite.quote and "thirty days" in cite.quote and cite.quote in GRACE.replace("\n", " ")


def test_service_reports_stage_timings(service: PolicyAnswerService) -> None:
    ans = service.ask("What is the grace period?")
    assert set(ans.timings_ms) == {"embed", "retrieve", "rerank", "generate", "total"}


def test_service_lists_every_retrieved_chunk(service: PolicyAnswerService) -> None:
    assert len(service.ask("grace period leave disease").retrieved) == 3


def test_service_respects_scope(service: PolicyAnswerService) -> None:
    ans = service.ask("What is the grace period for premium payment?", scope=["hr/**"])
    assert all(c.file.startswith("hr/") for c in ans.retrieved) and "thirty" not in ans.answer


def test_service_stream_ends_with_the_answer(service: PolicyAnswerService) -> None:
    items = list(service.ask_stream("What is the grace period?"))
    texts = [i for i in items if isinstance(i, str)]
    assert isinstance(items[-1], Answer) and texts == [items[-1].answer]


def test_service_stream_reports_progress_before_the_text(service: PolicyAnswerService) -> None:
    items = list(service.ask_stream("What is the grace period?"))
    steps = [i for i in items if isinstance(i, Progress)]
    assert [s.step for s in steps] == ["search", "read", "answer"]
    assert steps[0].count == 2 and steps[1].count == len(items[-1].retrieved)  # type: ignore[union-attr]
    assert items.index(steps[-1]) < items.index(next(i for i in items if isinstance(i, str)))


def test_service_with_empty_index_says_not_found(tmp_path: Path) -> None:
    emb = FakeEmbedder()
    retriever = HybridRetriever(new_store(tmp_path), emb, RETRIEVAL)
    svc = PolicyAnswerService(retriever, ExtractiveAnswerer(ANSWER))
    ans = svc.ask("What is the grace period?")
    assert not ans.found and ans.citations == []


class _FailingProvider:
    name = "broken"

    def generate(self, request: GenerationRequest) -> Generation:
        raise ProviderError("down")

    def stream(self, request: GenerationRequest):  # type: ignore[no-untyped-def]
        raise ProviderError("down")
        yield ""


def test_service_turns_provider_failure_into_refusal(service: PolicyAnswerService) -> None:
    svc = PolicyAnswerService(service.retriever, _FailingProvider())
    ans = svc.ask("What is the grace period?")
    assert not ans.found and ans.provider == "broken" and "down" in ans.details["attempts"]


def test_citation_markers_are_renumbered_to_the_citation_list(service: PolicyAnswerService) -> None:
    gen = Generation("Thirty days [2]. Leave is 25 days [1].", [1, 2], "fake")
    found = service.retriever.retrieve("grace period leave")
    ans = build_answer(gen, found, generation_ms=1.0, total_ms=2.0)
    assert ans.answer == "Thirty days [1]. Leave is 25 days [2]."
    assert ans.citations[0].chunk_id == found.chunks[1].chunk.chunk_id


def test_streamed_markers_are_renumbered_like_the_final_answer() -> None:
    markers = MarkerRenumberer(n_sources=5)
    streamed = markers.feed("Thirty days [") + markers.feed("5]. Leave [2], again [5].") + markers.flush()
    assert streamed == "Thirty days [1]. Leave [2], again [1]."
    assert renumber("Thirty days [5]. Leave [2], again [5].", cited_order("[5] [2]", [2, 5], 5)) == streamed


def test_split_gives_numbered_items_their_colon_lead_in() -> None:
    units = split_units("Exclusions apply in respect of:\n1. Persons above 45 years.\n"
                        "2. Delivery within a waiting period of 24 months. However, it may be waived.\n"
                        "3. More than two deliveries.", 1)
    assert [u.lead for u in units[1:]] == ["Exclusions apply in respect of:"] * 4


def test_split_leaves_numbered_clauses_without_colon_lead_in_alone() -> None:
    units = split_units("Definitions of this policy.\n2.21 Grace Period means thirty days.\n"
                        "2.22 Hospital means an institution.", 1)
    assert [u.lead for u in units[1:]] == ["", ""]


def test_extractive_quotes_numbered_conditions_after_their_lead_in() -> None:
    gen = _ask("Does this policy cover maternity expenses, and what are the conditions?",
               "The office canteen serves lunch at noon.\n"
               "Maternity expenses are covered on these conditions; no cover in respect of:\n"
               "1. Persons below eighteen years.\n"
               "2. Delivery within a waiting period of 24 months. However, it may be waived.\n"
               "3. Claims beyond two deliveries.")
    assert "24 months" in gen.text and "two deliveries" in gen.text


def test_extractive_quotes_a_list_once_so_other_sources_keep_their_slots() -> None:
    source = ("Hospital cash is paid per day for a maximum of five days, provided:\n"
              "i. the hospital stay exceeds three days;\nii. the hospital cash claim is admitted.")
    table = ("| Benefit | Plan A | Plan B |\n|---|---|---|\n"
             "| Hospital cash paid per day | INR 500 | INR 1,000 |")
    sources = [scored(source, ordinal=0), scored(table, ordinal=1)]
    settings = AnswerSettings(min_score=0.2, max_sentences=2)
    gen = ExtractiveAnswerer(settings).generate(
        GenerationRequest("How much hospital cash is paid per day, and for how many days?", sources))
    assert gen.text.count("the hospital stay exceeds three days") == 1 and "INR 1,000" in gen.text


def test_extractive_quotes_a_short_table_row_under_its_header() -> None:
    table = ("| Cover | Imperial Plan |\n|---|---|\n| Pre-hospitalisation | 60 days |\n"
             "| Post-hospitalisation | 180 days |\n| Day care procedures | Up to sum insured |")
    gen = _ask("How many days of post-hospitalisation expenses are covered?", table)
    assert gen.found and "180 days" in gen.text


def test_extractive_ignores_german_function_words() -> None:
    gen = _ask("Wie hoch ist der Selbstbehalt bei der CSS?",
               "Bei der Anmeldung ist der Ausweis der CSS zu zeigen. "
               "Der Selbstbehalt der CSS beträgt CHF 100.")
    assert gen.text.startswith("Der Selbstbehalt der CSS beträgt CHF 100.")


def test_extractive_definition_with_a_glued_clause_number_wins() -> None:
    gen = _ask("How does the policy define a 'Hospital'?",
               "Treatment at a hospital requires a referral from the hospital doctor. "
               "2.22Hospital means any institution with at least ten inpatient beds.")
    assert gen.text.startswith("2.22Hospital means")


def test_a_value_question_is_refused_when_the_only_value_is_a_placeholder() -> None:
    gen = _ask("What phone number do I call to make a claim?",
               "Contact Information. For claims, please contact: Claims Helpline: [Claims Contact Number]")
    assert not gen.found and gen.answerability == 0.0 and gen.answer_type == "phone"
    assert "does not state the phone number" in gen.text and "[Claims Contact Number]" in gen.text


def test_a_plan_the_sources_do_not_have_is_named_in_the_refusal() -> None:
    gen = _ask("What is the room rent limit under Plan D?",
               "Room rent for Plan A is capped at 1% of the sum insured per day.",
               "Room rent for Plan B is payable up to the sum insured.")
    assert not gen.found and "does not mention Plan D" in gen.text


def test_a_value_question_leads_with_the_unit_holding_the_value() -> None:
    gen = _ask("How many days do I have to submit my expense receipts?",
               "Expense receipts must be submitted through the online expense tool by each employee.",
               "Submit them within 30 days of the trip.")
    assert gen.found and gen.text.startswith("Submit them within 30 days") and gen.answer_type == "duration"
