"""The fallback chain built from settings, with real SDK clients against the stand-in server."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from typing import Any

import pytest

from core.config import Secrets, Settings
from core.errors import ProviderError
from core.llm.base import Generation, GenerationRequest
from core.llm.chain import FallbackChain
from core.llm.factory import build_provider_chain
from tests.llm_standin import StandIn
from tests.llm_standin import replies as r
from tests.llm_standin.helpers import FakeClock, FakeExtractive, RecordingSleep, make_request

PRIMARY, SECONDARY, LOCAL = "gemini-primary", "gemini-secondary", "llama-local"


@pytest.fixture
def standin() -> Iterator[StandIn]:
    with StandIn() as server:
        yield server


def settings_for(url: str, **llm: Any) -> Settings:
    common = {"timeout_s": 1.0, "max_retries": 1, "backoff_s": 0.01, "max_wait_s": 2.0}
    providers = [
        {"kind": "gemini", "model": PRIMARY, "base_url": url, **common},
        {"kind": "gemini", "model": SECONDARY, "base_url": url, **common},
        {"kind": "openai", "model": LOCAL, "base_url": url + "/v1", **common},
    ]
    return Settings.model_validate({"llm": {"providers": providers, **llm}})


@pytest.fixture
def sleep() -> RecordingSleep:
    return RecordingSleep()


@pytest.fixture
def chain(standin: StandIn, sleep: RecordingSleep) -> FallbackChain:
    return build_provider_chain(settings_for(standin.url), Secrets(gemini_api_key="test-key"),
                                FakeExtractive(), sleep=sleep)


def test_full_cascade_ends_in_extractive(
    standin: StandIn, chain: FallbackChain, sleep: RecordingSleep, caplog: pytest.LogCaptureFixture
) -> None:
    standin.script("gemini", PRIMARY, r.unavailable(), r.unavailable())
    standin.script("gemini", SECONDARY, r.thinking_exhausted())
    standin.script("openai", LOCAL, r.rate_limited(retry_after_s=0.3), r.rate_limited(retry_after_s=0.3))
    with caplog.at_level(logging.INFO):
        gen = chain.generate(make_request())
    assert gen.provider == "extractive"
    assert [a.split(":")[0] + ":" + a.split(":")[1] for a in gen.attempts] == [
        "gemini:gemini-primary", "gemini:gemini-secondary", "openai:llama-local"]
    assert "HTTP 503" in gen.attempts[0] and "MAX_TOKENS" in gen.attempts[1] and "HTTP 429" in gen.attempts[2]
    for name in ("gemini:gemini-primary", "gemini:gemini-secondary", "openai:llama-local"):
        messages = [rec.getMessage() for rec in caplog.records]
        assert any(name in m and "falling through" in m for m in messages)
    assert any("answer from extractive" in rec.getMessage() for rec in caplog.records)


def test_retry_after_is_honoured_inside_the_cascade(
    standin: StandIn, chain: FallbackChain, sleep: RecordingSleep
) -> None:
    standin.script("gemini", PRIMARY, r.unavailable(), r.unavailable())
    standin.script("gemini", SECONDARY, r.thinking_exhausted())
    standin.script("openai", LOCAL, r.rate_limited(retry_after_s=0.3), r.rate_limited(retry_after_s=0.3))
    chain.generate(make_request())
    first, second = standin.requests_for("openai", LOCAL)
    assert second.received_at - first.received_at >= 0.3
    assert sleep.delays[-1] == 0.3


def test_secondary_gemini_answers_after_primary_503(standin: StandIn, chain: FallbackChain) -> None:
    standin.script("gemini", PRIMARY, r.unavailable(), r.unavailable())
    standin.script("gemini", SECONDARY, r.answer_json("30 days [1].", [1]))
    gen = chain.generate(make_request())
    assert gen.provider == "gemini:gemini-secondary"
    assert len(gen.attempts) == 1 and gen.attempts[0].startswith("gemini:gemini-primary: HTTP 503")


@pytest.mark.parametrize("blocked", [r.safety_block(), r.recitation()], ids=["safety", "recitation"])
def test_blocked_answer_falls_through(standin: StandIn, chain: FallbackChain, blocked: r.Reply) -> None:
    standin.script("gemini", PRIMARY, blocked)
    standin.script("gemini", SECONDARY, r.answer_json("30 days [1].", [1]))
    gen = chain.generate(make_request())
    assert gen.provider == "gemini:gemini-secondary"
    assert blocked.kind.upper() in gen.attempts[0]


def test_hang_times_out_and_falls_through(standin: StandIn, chain: FallbackChain) -> None:
    standin.script("gemini", PRIMARY, r.hang(5))
    standin.script("gemini", SECONDARY, r.answer_json("30 days [1].", [1]))
    gen = chain.generate(make_request())
    assert gen.provider == "gemini:gemini-secondary"
    assert "timeout" in gen.attempts[0]


def test_streamed_gemini_answer_arrives_in_chunks(standin: StandIn, chain: FallbackChain) -> None:
    standin.script("gemini", PRIMARY, r.streamed("You get ", "30 days ", "of leave [1].", delay_s=0.01))
    items = list(chain.stream(make_request()))
    deltas = [i for i in items if isinstance(i, str)]
    final = items[-1]
    assert len(deltas) == 3
    assert isinstance(final, Generation) and final.provider == "gemini:gemini-primary"
    assert final.text == "".join(deltas)


def test_stream_failing_before_first_delta_falls_through(standin: StandIn, chain: FallbackChain) -> None:
    standin.script("gemini", PRIMARY, r.safety_block())
    standin.script("gemini", SECONDARY, r.streamed("30 days ", "[1]."))
    items = list(chain.stream(make_request()))
    final = items[-1]
    assert items[:-1] == ["30 days ", "[1]."]
    assert isinstance(final, Generation) and final.provider == "gemini:gemini-secondary"
    assert "SAFETY" in final.attempts[0]


def test_stream_failing_mid_way_ends_with_a_complete_answer(standin: StandIn, chain: FallbackChain) -> None:
    standin.script("gemini", PRIMARY, r.recitation("You get ", "30 days"))
    standin.script("gemini", SECONDARY, r.answer_json("You get 30 days of leave [1].", [1]))
    items = list(chain.stream(make_request()))
    final = items[-1]
    assert items[:-1] == ["You get "]
    assert isinstance(final, Generation)
    assert (final.provider, final.text) == ("gemini:gemini-secondary", "You get 30 days of leave [1].")


def test_stream_ends_in_extractive_when_all_fail(standin: StandIn, chain: FallbackChain) -> None:
    standin.script("gemini", PRIMARY, r.empty())
    standin.script("gemini", SECONDARY, r.prompt_blocked())
    standin.script("openai", LOCAL, r.safety_block())
    final = list(chain.stream(make_request()))[-1]
    assert isinstance(final, Generation) and final.provider == "extractive" and len(final.attempts) == 3


def test_keyword_augmentation_reaches_the_prompt(standin: StandIn, sleep: RecordingSleep) -> None:
    settings = settings_for(standin.url, keyword_augmentations={"PED": "PED means pre-existing disease."})
    chain = build_provider_chain(settings, Secrets(gemini_api_key="k"), FakeExtractive(), sleep=sleep)
    standin.script("gemini", PRIMARY, r.answer_json("Covered after 36 months [1].", [1]))
    chain.generate(make_request("Is PED covered?"))
    prompt = standin.requests_for("gemini", PRIMARY)[0].body["contents"][-1]["parts"][0]["text"]
    assert "PED means pre-existing disease." in prompt


def test_provider_without_key_is_skipped_with_warning(
    standin: StandIn, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING):
        chain = build_provider_chain(settings_for(standin.url), Secrets(), FakeExtractive(), env={})
    assert chain.provider_names == ["openai:llama-local", "extractive"]
    assert sum("skipped: no API key" in rec.getMessage() for rec in caplog.records) == 2


def test_api_key_env_is_read_from_the_environment(standin: StandIn) -> None:
    settings = Settings.model_validate({"llm": {"providers": [
        {"kind": "gemini", "model": PRIMARY, "base_url": standin.url, "api_key_env": "MY_KEY"}]}})
    chain = build_provider_chain(settings, Secrets(), FakeExtractive(), env={"MY_KEY": "secret-123"})
    standin.script("gemini", PRIMARY, r.answer_json("30 days [1].", [1]))
    chain.generate(make_request())
    assert standin.requests_for("gemini", PRIMARY)[0].headers.get("x-goog-api-key") == "secret-123"


class FailingProvider:
    """Always fails; counts calls."""

    name = "flaky"

    def __init__(self) -> None:
        self.calls = 0

    def generate(self, request: GenerationRequest) -> Generation:
        self.calls += 1
        raise ProviderError("flaky: HTTP 503")

    def stream(self, request: GenerationRequest) -> Iterator[str | Generation]:
        yield self.generate(request)


def test_circuit_breaker_skips_during_cooldown_and_retries_after() -> None:
    clock, flaky = FakeClock(), FailingProvider()
    chain = FallbackChain([flaky], FakeExtractive(), breaker_failures=2, breaker_cooldown_s=30, clock=clock)
    chain.generate(make_request())
    chain.generate(make_request())
    skipped = chain.generate(make_request())
    assert flaky.calls == 2 and "circuit open" in skipped.attempts[0]
    clock.now += 31
    tried = chain.generate(make_request())
    assert flaky.calls == 3 and tried.attempts == ("flaky: HTTP 503",)
    assert "circuit open" in chain.generate(make_request()).attempts[0]  # the failed trial re-opened it


def test_extractive_failure_raises_with_every_attempt() -> None:
    chain = FallbackChain([FailingProvider()], FakeExtractive(fail=True))
    with pytest.raises(ProviderError, match="every answer provider failed: flaky: HTTP 503; extractive"):
        chain.generate(make_request())
