"""GeminiProvider with the real google-genai client against the local stand-in server."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from core.errors import ProviderError
from core.llm.base import Generation
from core.llm.gemini import GeminiProvider
from core.llm.retry import RetryPolicy
from core.types import Turn
from tests.llm_standin import StandIn
from tests.llm_standin import replies as r
from tests.llm_standin.helpers import RecordingSleep, make_request

MODEL = "gemini-test"


@pytest.fixture
def standin() -> Iterator[StandIn]:
    with StandIn() as server:
        yield server


@pytest.fixture
def sleep() -> RecordingSleep:
    return RecordingSleep()


@pytest.fixture
def provider(standin: StandIn, sleep: RecordingSleep) -> GeminiProvider:
    return GeminiProvider(MODEL, api_key="test-key", base_url=standin.url, timeout_s=1.0,
                          retry=RetryPolicy(max_retries=1, backoff_s=0.01, max_wait_s=2.0), sleep=sleep)


def test_structured_answer_becomes_generation(standin: StandIn, provider: GeminiProvider) -> None:
    standin.script("gemini", MODEL, r.answer_json("You get 30 days of annual leave [1].", [1]))
    gen = provider.generate(make_request())
    assert (gen.text, tuple(gen.cited), gen.provider, gen.found) == (
        "You get 30 days of annual leave [1].", (1,), "gemini:gemini-test", True)


def test_request_asks_for_json_schema_with_grounding_prompt(
    standin: StandIn, provider: GeminiProvider
) -> None:
    standin.script("gemini", MODEL, r.answer_json("30 days [1].", [1]))
    provider.generate(make_request())
    body = standin.requests_for("gemini", MODEL)[0].body
    assert body["generationConfig"]["responseMimeType"] == "application/json"
    assert set(body["generationConfig"]["responseSchema"]["properties"]) == {"answer", "cited", "found"}
    assert "Answer only from the numbered sources" in body["systemInstruction"]["parts"][0]["text"]
    assert "[1] file: hr/policy.pdf, page 1" in body["contents"][-1]["parts"][0]["text"]


def test_thought_parts_are_never_shown(standin: StandIn, provider: GeminiProvider) -> None:
    reply = r.answer('{"answer": "30 days [1].", "cited": [1], "found": true}', thought="SECRET PLAN")
    standin.script("gemini", MODEL, reply)
    assert "SECRET" not in provider.generate(make_request()).text


def test_history_is_sent_as_earlier_turns(standin: StandIn, provider: GeminiProvider) -> None:
    standin.script("gemini", MODEL, r.answer_json("Also 30 days [1].", [1]))
    history = (Turn("user", "What about Plan A?"), Turn("assistant", "Plan A caps room rent [2]."))
    provider.generate(make_request("And leave?", history=history))
    contents = standin.requests_for("gemini", MODEL)[0].body["contents"]
    assert [(c["role"], c["parts"][0]["text"]) for c in contents[:2]] == [
        ("user", "What about Plan A?"), ("model", "Plan A caps room rent [2].")]


def test_rate_limit_waits_for_retry_info_delay(
    standin: StandIn, provider: GeminiProvider, sleep: RecordingSleep
) -> None:
    standin.script("gemini", MODEL, r.rate_limited(retry_delay_s=0.2), r.answer_json("30 days [1].", [1]))
    assert provider.generate(make_request()).cited == (1,)
    first, second = standin.requests_for("gemini", MODEL)
    assert sleep.delays == [0.2]
    assert second.received_at - first.received_at >= 0.2


def test_retry_after_header_and_retry_info_take_the_longer(
    standin: StandIn, provider: GeminiProvider, sleep: RecordingSleep
) -> None:
    standin.script("gemini", MODEL, r.rate_limited(retry_after_s=0.3, retry_delay_s=0.1),
                   r.answer_json("30 days [1].", [1]))
    provider.generate(make_request())
    assert sleep.delays == [0.3]


def test_unavailable_is_retried_then_gives_up(standin: StandIn, provider: GeminiProvider) -> None:
    standin.script("gemini", MODEL, r.unavailable(), r.unavailable())
    with pytest.raises(ProviderError, match=r"HTTP 503 UNAVAILABLE \(after 2 attempts\)"):
        provider.generate(make_request())
    assert len(standin.requests_for("gemini", MODEL)) == 2


def test_delay_longer_than_max_wait_is_not_waited_for(
    standin: StandIn, provider: GeminiProvider, sleep: RecordingSleep
) -> None:
    standin.script("gemini", MODEL, r.rate_limited(retry_delay_s=60))
    with pytest.raises(ProviderError, match="429"):
        provider.generate(make_request())
    assert sleep.delays == [] and len(standin.requests_for("gemini", MODEL)) == 1


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        (r.safety_block(), "finish reason SAFETY"),
        (r.recitation(), "finish reason RECITATION"),
        (r.prompt_blocked(), r"prompt blocked \(SAFETY\)"),
        (r.empty(), "empty answer"),
        (r.thinking_exhausted(), r"cut off \(MAX_TOKENS; thinking used 5 tokens\)"),
    ],
    ids=["safety", "recitation", "prompt-blocked", "empty", "thinking-exhausted"],
)
def test_unusable_answer_raises(
    standin: StandIn, provider: GeminiProvider, reply: r.Reply, reason: str
) -> None:
    standin.script("gemini", MODEL, reply)
    with pytest.raises(ProviderError, match=reason):
        provider.generate(make_request())


def test_hang_times_out(standin: StandIn, provider: GeminiProvider) -> None:
    standin.script("gemini", MODEL, r.hang(5))
    with pytest.raises(ProviderError, match=r"no response within 1 s \(timeout\)"):
        provider.generate(make_request())
    assert len(standin.requests_for("gemini", MODEL)) == 1  # timeouts are not retried


def test_unknown_cited_numbers_are_dropped(standin: StandIn, provider: GeminiProvider) -> None:
    standin.script("gemini", MODEL, r.answer_json("30 days [1][9]. Claims in 30 days [3, 7].", [1, 9, 3, 7]))
    gen = provider.generate(make_request())
    assert gen.cited == (1, 3)
    assert gen.text == "30 days [1]. Claims in 30 days [3]."


def test_answer_citing_only_unknown_sources_is_rejected(standin: StandIn, provider: GeminiProvider) -> None:
    standin.script("gemini", MODEL, r.answer_json("30 days [8].", [8]))
    with pytest.raises(ProviderError, match="ungrounded"):
        provider.generate(make_request())


def test_not_found_answer_keeps_its_text(standin: StandIn, provider: GeminiProvider) -> None:
    reply = r.answer_json("The policies provided do not cover pets.", [], found=False)
    standin.script("gemini", MODEL, reply)
    gen = provider.generate(make_request("Can I bring my dog?"))
    assert (gen.found, tuple(gen.cited)) == (False, ())


def test_non_json_structured_answer_is_rejected(standin: StandIn, provider: GeminiProvider) -> None:
    standin.script("gemini", MODEL, r.answer("30 days [1]."))
    with pytest.raises(ProviderError, match="not the requested JSON"):
        provider.generate(make_request())


def test_stream_yields_several_deltas_then_generation(standin: StandIn, provider: GeminiProvider) -> None:
    standin.script("gemini", MODEL, r.streamed("You get ", "30 days ", "of annual leave [1]."))
    items = list(provider.stream(make_request()))
    deltas, final = items[:-1], items[-1]
    assert deltas == ["You get ", "30 days ", "of annual leave [1]."]
    assert isinstance(final, Generation)
    assert (final.text, tuple(final.cited), final.found) == (
        "You get 30 days of annual leave [1].", (1,), True)
    assert standin.requests_for("gemini", MODEL)[0].path.endswith(":streamGenerateContent")


def test_stream_retries_before_first_delta(
    standin: StandIn, provider: GeminiProvider, sleep: RecordingSleep
) -> None:
    standin.script("gemini", MODEL, r.rate_limited(retry_after_s=0.1), r.streamed("30 days ", "[1]."))
    items = list(provider.stream(make_request()))
    assert items[:2] == ["30 days ", "[1]."] and sleep.delays == [0.1]


def test_stream_blocked_mid_way_raises_after_partial_text(standin: StandIn, provider: GeminiProvider) -> None:
    standin.script("gemini", MODEL, r.recitation("You get ", "30 days"))
    stream = provider.stream(make_request())
    assert next(stream) == "You get "
    with pytest.raises(ProviderError, match="RECITATION"):
        next(stream)
