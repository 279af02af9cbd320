"""OpenAICompatProvider with the real openai client against the local stand-in server."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from core.errors import ProviderError
from core.llm.base import Generation
from core.llm.openai_compat import OpenAICompatProvider
from core.llm.retry import RetryPolicy
from tests.llm_standin import StandIn
from tests.llm_standin import replies as r
from tests.llm_standin.helpers import RecordingSleep, make_request

MODEL = "llama-test"


@pytest.fixture
def standin() -> Iterator[StandIn]:
    with StandIn() as server:
        yield server


@pytest.fixture
def sleep() -> RecordingSleep:
    return RecordingSleep()


@pytest.fixture
def provider(standin: StandIn, sleep: RecordingSleep) -> OpenAICompatProvider:
    return OpenAICompatProvider(MODEL, api_key="no-key", base_url=standin.url + "/v1", timeout_s=1.0,
                                retry=RetryPolicy(max_retries=1, backoff_s=0.01, max_wait_s=2.0), sleep=sleep)


def test_structured_answer_becomes_generation(standin: StandIn, provider: OpenAICompatProvider) -> None:
    standin.script("openai", MODEL, r.answer_json("Room rent is capped at Rs 5,000 a day [2].", [2]))
    gen = provider.generate(make_request("Room rent under Plan A?"))
    assert (tuple(gen.cited), gen.provider, gen.found) == ((2,), "openai:llama-test", True)
    body = standin.requests_for("openai", MODEL)[0].body
    assert body["response_format"]["type"] == "json_schema"
    assert [m["role"] for m in body["messages"]] == ["system", "user"]


def test_rate_limit_honours_retry_after(
    standin: StandIn, provider: OpenAICompatProvider, sleep: RecordingSleep
) -> None:
    standin.script("openai", MODEL, r.rate_limited(retry_after_s=0.3), r.answer_json("30 days [1].", [1]))
    assert provider.generate(make_request()).cited == (1,)
    first, second = standin.requests_for("openai", MODEL)
    assert sleep.delays == [0.3]
    assert second.received_at - first.received_at >= 0.3


def test_rejected_json_schema_falls_back_to_plain_text(
    standin: StandIn, provider: OpenAICompatProvider
) -> None:
    standin.script("openai", MODEL, r.bad_request(), r.answer("You get 30 days [1]."),
                   r.answer("Claims within 30 days [3]."))
    assert provider.generate(make_request()).cited == (1,)
    assert provider.generate(make_request("When do I file a claim?")).cited == (3,)
    formats = ["response_format" in q.body for q in standin.requests_for("openai", MODEL)]
    assert formats == [True, False, False]  # remembered after the first rejection


def test_plain_text_without_citations_is_not_found(standin: StandIn, provider: OpenAICompatProvider) -> None:
    standin.script("openai", MODEL, r.answer("The policies provided do not cover pets."))
    gen = provider.generate(make_request("Can I bring my dog?"))
    assert (gen.found, tuple(gen.cited)) == (False, ())


def test_thinking_block_is_stripped(standin: StandIn, provider: OpenAICompatProvider) -> None:
    standin.script("openai", MODEL, r.answer('<think>secret reasoning</think>{"answer": "30 days [1].", '
                                            '"cited": [1], "found": true}'))
    assert provider.generate(make_request()).text == "30 days [1]."


@pytest.mark.parametrize(
    ("reply", "reason"),
    [
        (r.safety_block(), "content_filter"),
        (r.thinking_exhausted(), r"cut off \(finish_reason length\)"),
        (r.empty(), "empty answer"),
        (r.unavailable(), r"HTTP 503 \(after 2 attempts\)"),
    ],
    ids=["content-filter", "length", "empty", "unavailable"],
)
def test_unusable_answer_raises(
    standin: StandIn, provider: OpenAICompatProvider, reply: r.Reply, reason: str
) -> None:
    standin.script("openai", MODEL, reply, reply)
    with pytest.raises(ProviderError, match=reason):
        provider.generate(make_request())


def test_hang_times_out(standin: StandIn, provider: OpenAICompatProvider) -> None:
    standin.script("openai", MODEL, r.hang(5))
    with pytest.raises(ProviderError, match=r"no response within 1 s \(timeout\)"):
        provider.generate(make_request())
    assert len(standin.requests_for("openai", MODEL)) == 1


def test_stream_yields_several_deltas_then_generation(
    standin: StandIn, provider: OpenAICompatProvider
) -> None:
    standin.script("openai", MODEL, r.streamed("Claims within ", "30 days ", "[3]."))
    items = list(provider.stream(make_request("When do I file a claim?")))
    assert items[:-1] == ["Claims within ", "30 days ", "[3]."]
    final = items[-1]
    assert isinstance(final, Generation) and final.cited == (3,)


def test_stream_hides_leading_thinking(standin: StandIn, provider: OpenAICompatProvider) -> None:
    standin.script("openai", MODEL, r.streamed("<think>hmm", " secret</think>", "30 days [1]."))
    items = list(provider.stream(make_request()))
    assert "".join(i for i in items if isinstance(i, str)) == "30 days [1]."


def test_stream_cut_off_raises(standin: StandIn, provider: OpenAICompatProvider) -> None:
    standin.script("openai", MODEL, r.thinking_exhausted())
    with pytest.raises(ProviderError, match="cut off"):
        list(provider.stream(make_request()))
