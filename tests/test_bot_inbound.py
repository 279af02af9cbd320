"""Inbound Slack text: markup decoded once, and acknowledgements told from questions (pure)."""

from __future__ import annotations

import pytest

from bot.inbound import decode
from core.message_kind import message_kind


@pytest.mark.parametrize(("raw", "typed"), [
    ("R&amp;D &lt;b&gt; &gt; 5", "R&D <b> > 5"),
    ("typed &amp;lt; literally", "typed &lt; literally"),  # decoded once, not twice
    ("see <https://x.example/a?b=1&amp;c=2|the page>", "see the page"),
    ("see <https://x.example/a?b=1&amp;c=2>", "see https://x.example/a?b=1&c=2"),
    ("mail <mailto:hr@example.com|hr@example.com> or <mailto:it@example.com>",
     "mail hr@example.com or it@example.com"),
    ("<@U0FAKEBOT1> ask <@U0OTHER|ann> and <@U0THIRD>", "ask @ann and @user"),
    ("in <#C0123|general> <!here> <!subteam^S1|@hr-team>", "in #general @here @hr-team"),
    ("due <!date^1718000000^{date}|June 10th> :+1:", "due June 10th :+1:"),
])
def test_markup_is_decoded_to_what_was_typed(raw: str, typed: str) -> None:
    assert decode(raw, "U0FAKEBOT1") == typed


@pytest.mark.parametrize("text", [
    "thanks", "Thanks!", "thanks, that's really helpful!", "ok :+1:", "great, cheers", "ok great thanks",
    "Thanks, that answers it for the whole team.", "Super helpful, thank you so much", "got it 👍",
])
def test_acknowledgements(text: str) -> None:
    assert message_kind(text) == "ack"


@pytest.mark.parametrize("text", [":+1:", "👍🙏", "hi", "hello @ann", "  "])
def test_content_free(text: str) -> None:
    assert message_kind(text) == "empty"


@pytest.mark.parametrize("text", [
    "And for Plan B?", "parental leave", "thanks! and for part-timers", "ok, what about contractors",
    "Good morning, is dental covered", "fine dining expenses policy", "great, can I carry days over",
    "Thanks. One more: is the bonus taxable", "how many vacation days do I get",
])
def test_questions(text: str) -> None:
    assert message_kind(text) == "question"
