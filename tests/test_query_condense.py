"""Follow-up condensation: deterministic merge on the qa_dev follow-ups, and the LLM rewriter path
(fake rewriter; real GeminiProvider + google-genai client against the local stand-in)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from core.errors import ProviderError
from core.llm.base import Generation, GenerationRequest
from core.llm.gemini import GeminiProvider
from core.llm.retry import RetryPolicy
from core.query.condense import condense, is_follow_up, previous_question
from core.query.doc_scope import build_catalog
from core.query.rewriter import FakeRewriter, ProviderRewriter, clean_rewrite
from core.types import Turn
from tests.llm_standin import StandIn
from tests.llm_standin import replies as r

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"
PLAN_A = "Are there any sub-limits on room rent and ICU charges for Plan A?"


@pytest.fixture(scope="module")
def qa() -> dict[str, dict[str, object]]:
    items = yaml.safe_load((CORPUS / "qa_dev.yaml").read_text(encoding="utf-8"))
    return {item["id"]: item for item in items}


def thread(*questions: str) -> list[Turn]:
    turns: list[Turn] = []
    for q in questions:
        turns += [Turn("user", q), Turn("assistant", "An answer [1].")]
    return turns


def follow_up(qa: dict[str, dict[str, object]], item_id: str) -> str:
    item = qa[item_id]
    parent = str(qa[str(item["follow_up_of"])]["question"])
    return condense(str(item["question"]), thread(parent))


# --- deterministic merge ---------------------------------------------------------------------------

def test_plan_follow_up_swaps_the_plan(qa: dict[str, dict[str, object]]) -> None:
    assert follow_up(qa, "dev-12") == "Are there any sub-limits on room rent and ICU charges for Plan B?"


def test_pronoun_follow_up_carries_product_and_topic(qa: dict[str, dict[str, object]]) -> None:
    out = follow_up(qa, "dev-02")
    assert out.startswith("If the flight was 300 km, how much would they pay?")
    assert "Edelweiss Well Baby Well Mother" in out and "air ambulance" in out


def test_demonstrative_follow_up_names_the_product(qa: dict[str, dict[str, object]]) -> None:
    out = follow_up(qa, "dev-04")
    assert "Bajaj Allianz Global Health Care domestic cover" in out
    assert "post-hospitalisation" in out and not out.lower().startswith("and")


def test_standalone_question_passes_through(qa: dict[str, dict[str, object]]) -> None:
    question = str(qa["dev-13"]["question"])
    assert condense(question, thread(PLAN_A)) == question


def test_question_without_history_passes_through() -> None:
    assert condense("And for Plan B?", []) == "And for Plan B?"


def test_follow_up_naming_another_product_swaps_the_product() -> None:
    history = thread("What base co-payment applies under ICICI Lombard Golden Shield?")
    out = condense("And under Arogya Sanjeevani?", history)
    assert out == "What base co-payment applies under Arogya Sanjeevani?"


def test_follow_up_without_counterpart_slot_is_appended() -> None:
    assert condense("What about Plan C?", thread("What is the room rent limit?")) == \
        "What is the room rent limit for Plan C?"


def test_chain_of_follow_ups_keeps_the_first_context() -> None:
    history = thread(PLAN_A, "And for Plan B?")
    assert condense("And for Plan C?", history) == PLAN_A.replace("Plan A", "Plan C")


def test_current_question_repeated_at_end_of_history_is_ignored() -> None:
    history = [*thread(PLAN_A), Turn("user", "And for Plan B?")]
    assert previous_question("And for Plan B?", history) == PLAN_A


def test_long_question_naming_a_product_is_not_a_follow_up() -> None:
    assert not is_follow_up("And what is the co-payment under the Arogya Sanjeevani policy?", PLAN_A)


def test_catalog_recognises_lowercase_product_name() -> None:
    catalog = build_catalog([("arogya_sanjeevani.pdf", "Arogya Sanjeevani Policy - National")])
    question = "and what is the co-payment under arogya sanjeevani for seniors?"
    assert is_follow_up(question, PLAN_A)  # no capitalised name: looks like a follow-up
    assert not is_follow_up(question, PLAN_A, catalog)


def test_short_question_is_a_follow_up() -> None:
    assert is_follow_up("Plan C?", PLAN_A)


# --- LLM rewriter -----------------------------------------------------------------------------------

def test_rewriter_result_is_used() -> None:
    fake = FakeRewriter({"And for Plan B?": "Room rent and ICU sub-limits for Plan B?"})
    assert condense("And for Plan B?", thread(PLAN_A), fake) == "Room rent and ICU sub-limits for Plan B?"
    assert fake.calls[0][1][0].text == PLAN_A


def test_rewriter_failure_falls_back_to_merge() -> None:
    assert condense("And for Plan B?", thread(PLAN_A), FakeRewriter()) == PLAN_A.replace("Plan A", "Plan B")


def test_rewriter_not_asked_for_standalone_questions() -> None:
    fake = FakeRewriter()
    condense("What is the grace period under Arogya Sanjeevani?", thread(PLAN_A), fake)
    assert fake.calls == []


class ScriptedProvider:
    """An in-memory AnswerProvider returning one Generation, or raising."""

    def __init__(self, gen: Generation | None, name: str = "scripted") -> None:
        self.name = name
        self.gen = gen
        self.requests: list[GenerationRequest] = []

    def generate(self, request: GenerationRequest) -> Generation:
        self.requests.append(request)
        if self.gen is None:
            raise ProviderError("scripted: down")
        return self.gen

    def stream(self, request: GenerationRequest) -> Iterator[str | Generation]:
        yield self.generate(request)


def test_provider_rewriter_sends_conversation_as_source_one() -> None:
    provider = ScriptedProvider(Generation("Sub-limits for Plan B? [1]", (1,), "scripted"))
    assert condense("And for Plan B?", thread(PLAN_A), provider) == "Sub-limits for Plan B?"
    (request,) = provider.requests
    assert PLAN_A in request.sources[0].chunk.text and "And for Plan B?" in request.question


@pytest.mark.parametrize("gen", [
    None,
    Generation("The policies do not cover this.", (), "scripted", found=False),
    Generation("Employee: Are there any sub-limits ...", (1,), "extractive"),
])
def test_unusable_provider_reply_falls_back(gen: Generation | None) -> None:
    out = condense("And for Plan B?", thread(PLAN_A), ScriptedProvider(gen))
    assert out == PLAN_A.replace("Plan A", "Plan B")


def test_clean_rewrite_strips_citations_and_quotes() -> None:
    assert clean_rewrite('"Sub-limits for Plan B?" [1]\nmore text') == "Sub-limits for Plan B?"
    assert clean_rewrite("  \n ") is None


def test_gemini_provider_rewrites_through_real_client() -> None:
    with StandIn() as standin:
        reply = r.answer_json("Room rent and ICU sub-limits for Plan B? [1]", [1])
        standin.script("gemini", "gemini-test", reply)
        provider = GeminiProvider("gemini-test", api_key="k", base_url=standin.url, timeout_s=2.0,
                                  retry=RetryPolicy(max_retries=0, backoff_s=0.01, max_wait_s=1.0))
        out = ProviderRewriter(provider).rewrite("And for Plan B?", thread(PLAN_A))
        body = str(standin.requests_for("gemini", "gemini-test")[0].body)
    assert out == "Room rent and ICU sub-limits for Plan B?"
    assert PLAN_A in body


def test_a_noun_phrase_follow_up_carries_the_previous_topic() -> None:
    history = [Turn("user", "How many weeks of parental leave does the birth mother get?"),
               Turn("assistant", "Birth mothers get 26 weeks.")]
    out = condense("And for the other parent?", history)
    assert out.startswith("For the other parent?") and "parental leave" in out


def test_a_follow_up_with_one_content_word_carries_the_previous_topic() -> None:
    history = [Turn("user", "Is physiotherapy covered?"), Turn("assistant", "Yes, up to 10 sessions.")]
    assert "physiotherapy" in condense("What is the limit?", history)


def test_a_follow_up_whose_demonstrative_placed_the_names_carries_no_topic_words() -> None:
    history = [Turn("user", "What does the Contoso Gold Care plan pay for hotel stays abroad?"),
               Turn("assistant", "Up to $200 a night.")]
    out = condense("And what does that plan pay if they need surgery?", history)
    assert out == "What does the Contoso Gold Care plan pay if they need surgery?"
