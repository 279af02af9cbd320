"""Rendering is a pure function: escaping, sources (page links, quotes), provider, feedback buttons,
splitting within limits."""

from __future__ import annotations

from bot.render import escape, render_answer, section_texts, split_text
from core.types import Answer, Citation
from tests.slack_standin.methods import check_blocks

CITES = [Citation("hr/leave policy.pdf", 3, "Benefits > Leave", 0.9), Citation("hr/faq.md", None, "", 0.5)]


def test_document_text_cannot_ping_or_inject_links() -> None:
    out = escape("Tell <!channel> and <!here> and <@U123ABC> & use <http://x|y> @channel")
    assert "<!channel>" not in out and "<!here>" not in out and "<@U123ABC>" not in out
    assert "<http" not in out and "&amp; use" in out
    assert "@channel" not in out  # a word joiner breaks the bare mass mention


def test_sources_name_file_page_and_section_and_link_with_base_url() -> None:
    msgs = render_answer(Answer("Thirty days.", CITES, "extractive"), base_url="https://wiki.example/policies")
    text = "\n".join(section_texts(msgs))
    assert "<https://wiki.example/policies/hr/leave%20policy.pdf#page=3|hr/leave policy.pdf>" in text
    assert "<https://wiki.example/policies/hr/faq.md|hr/faq.md>" in text  # no page anchor off PDFs
    assert "p. 3" in text and "Benefits &gt; Leave" in text


def test_a_citation_spanning_two_pages_names_both() -> None:
    span = Citation("policy.pdf", 61, "Cover", 0.9, page_end=62)
    text = "\n".join(section_texts(render_answer(Answer("Repairs are paid.", [span], "extractive"))))
    assert "pp. 61–62" in text


def test_source_shows_its_quoted_span_escaped() -> None:
    cite = Citation("hr/leave.md", None, "Leave", 0.9, quote="Staff get 25 days <paid> leave.")
    text = "\n".join(section_texts(render_answer(Answer("25 days.", [cite], "extractive"))))
    assert "• *hr/leave.md* — Leave\n> “Staff get 25 days &lt;paid&gt; leave.”" in text


def test_provider_in_context_line_and_feedback_buttons_last() -> None:
    msgs = render_answer(Answer("Thirty days.", CITES, "gemini:gemini-2.5-flash"))
    context, buttons = msgs[-1].blocks[-2:]
    assert context["type"] == "context"
    assert "gemini:gemini-2.5-flash" in context["elements"][0]["text"]
    assert buttons["type"] == "context_actions"
    (element,) = buttons["elements"]
    assert element["type"] == "feedback_buttons" and element["action_id"] == "answer_feedback"
    assert (element["positive_button"]["value"], element["negative_button"]["value"]) == (
        "good-feedback", "bad-feedback")
    check_blocks(msgs[-1].blocks)


def test_refusal_also_gets_feedback_buttons() -> None:
    msgs = render_answer(Answer("I could not find this.", [], "extractive", found=False))
    assert msgs[-1].blocks[-1]["type"] == "context_actions"


def test_ephemeral_answers_have_no_feedback_buttons() -> None:
    msgs = render_answer(Answer("Thirty days.", CITES, "extractive"), feedback=False)
    assert "context_actions" not in str(msgs) and ":+1:" not in str(msgs)


def test_split_keeps_every_character_and_respects_limit() -> None:
    text = ("word " * 900 + "\n\n" + "x" * 7000 + " tail & more").strip()
    parts = split_text(text, 3000)
    assert "".join(parts) == text
    assert all(0 < len(p) <= 3000 for p in parts)


def test_split_never_cuts_an_entity() -> None:
    text = escape("&" * 2000)  # 10,000 characters of &amp;
    parts = split_text(text, 3000)
    assert all(p.startswith("&amp;") and p.endswith("&amp;") for p in parts)


def test_long_answer_with_many_sources_fits_slack_limits() -> None:
    cites = [Citation(f"f{i}.md", i, f"S{i}", 0.5) for i in range(400)]
    answer = Answer("Long sentence here. " * 4000, cites, "extractive")
    msgs = render_answer(answer)
    assert len(msgs) > 1
    for m in msgs:
        check_blocks(m.blocks)  # the stand-in's validator: ≤ 50 blocks, ≤ 3,000 chars per section
    texts = section_texts(msgs)
    first_source = next(i for i, t in enumerate(texts) if t.startswith("*Sources*"))
    assert "".join(texts[:first_source]) == escape(answer.answer.strip())
    assert all(f"f{i}.md" in "".join(texts[first_source:]) for i in range(400))
