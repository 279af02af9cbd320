"""Prompt building, citation validation and retry-delay parsing (no network)."""

from __future__ import annotations

import email.utils

import pytest

from core.errors import ProviderError
from core.llm.grounding import cited_in_text, finalize, parse_structured
from core.llm.prompt import build_prompt, match_augmentations, pack_sources
from core.llm.retry import RetryPolicy, retry_after_from_headers, retry_delay_from_details
from core.tokens import count_tokens
from tests.llm_standin.helpers import make_request, make_sources

LONG = tuple(f"Clause {i}. " + "The insured must notify the insurer promptly. " * 20 for i in range(6))


def test_sources_are_packed_in_rerank_order_within_budget() -> None:
    packed = pack_sources(make_sources(LONG), 600)
    assert [n for n, _ in packed] == list(range(1, len(packed) + 1))
    assert 1 < len(packed) < len(LONG)
    assert sum(count_tokens(text) for _, text in packed) <= 600


def test_oversized_first_source_is_truncated_not_dropped() -> None:
    packed = pack_sources(make_sources((LONG[0] * 3,)), 120)
    assert [n for n, _ in packed] == [1] and packed[0][1].rstrip().endswith("…")
    assert count_tokens(packed[0][1]) <= 120


def test_prompt_numbers_match_packed_sources() -> None:
    prompt = build_prompt(make_request(), max_context_tokens=3000)
    assert prompt.numbers == (1, 2, 3)
    assert "[3] file: hr/policy.pdf, page 3, section: Section 3" in prompt.user
    assert prompt.user.rstrip().endswith("Question: How many days of annual leave do I get?")


def test_prompt_carries_augmentations() -> None:
    request = make_request(augmentations=("NCD means no claim discount.",))
    prompt = build_prompt(request, max_context_tokens=3000)
    assert "- NCD means no claim discount." in prompt.user


def test_grounding_rules_cover_refusal_and_fraud() -> None:
    system = build_prompt(make_request(), max_context_tokens=3000).system
    assert "do not state" in system and "deceive an insurer" in system and "[n]" in system
    assert "placeholder" in system


def test_augmentation_keywords_match_whole_words_only() -> None:
    table = {"PED": "PED means pre-existing disease.", "room rent": "Room rent excludes ICU."}
    assert match_augmentations("Is my ped covered? What about Room Rent?", table) == (
        "PED means pre-existing disease.", "Room rent excludes ICU.")
    assert match_augmentations("How fast is the claim speed?", table) == ()


def test_parse_structured_accepts_code_fences() -> None:
    raw = '```json\n{"answer": "30 days [1]", "cited": [1], "found": true}\n```'
    assert parse_structured(raw) == ("30 days [1]", [1], True)


def test_parse_structured_rejects_plain_text() -> None:
    with pytest.raises(ValueError):
        parse_structured("30 days [1]")


def test_cited_in_text_reads_lists() -> None:
    assert cited_in_text("a [2], b [1, 3]; c [2]") == [2, 1, 3]


def test_finalize_plain_text_without_valid_citation_is_not_found() -> None:
    gen = finalize("Nothing about pets [9].", (), found=None, allowed=(1, 2), provider="p")
    assert (gen.found, gen.text, tuple(gen.cited)) == (False, "Nothing about pets.", ())


def test_finalize_rejects_empty_text() -> None:
    with pytest.raises(ProviderError, match="empty answer"):
        finalize("<think>only thinking</think>  ", (), found=True, allowed=(1,), provider="p")


def test_retry_after_seconds_ms_and_date() -> None:
    assert retry_after_from_headers({"Retry-After": "2"}) == 2.0
    assert retry_after_from_headers({"retry-after-ms": "250"}) == 0.25
    date = email.utils.formatdate(1_000_010, usegmt=True)
    assert retry_after_from_headers({"Retry-After": date}, now=1_000_000) == 10.0
    assert retry_after_from_headers({"Retry-After": "soon"}) is None


def test_retry_info_delay_is_parsed() -> None:
    details = [{"@type": "type.googleapis.com/google.rpc.Help"},
               {"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "1.5s"}]
    assert retry_delay_from_details(details) == 1.5


def test_backoff_doubles_without_a_server_delay() -> None:
    policy = RetryPolicy(backoff_s=0.5)
    waits = [policy.wait_s(n, None) for n in (1, 2, 3)]
    assert [round(w / b, 1) <= 1.1 for w, b in zip(waits, (0.5, 1.0, 2.0), strict=True)] == [True] * 3
    assert waits[0] >= 0.5 and waits[1] >= 1.0 and waits[2] >= 2.0
