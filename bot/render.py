"""Rendering answers as Slack messages — pure functions, no I/O.

An answer becomes one or more messages of Block Kit blocks: the answer text in ``section`` blocks
(≤ 3,000 characters each), the sources (file, page, section, and a short quoted span of the passage;
with ``links.base_url`` the file name links to the file, at ``#page=N`` for PDFs — the PDF open
parameters of RFC 8118 §3), a context line naming the provider (for a verified answer from the cache:
"✅ Verified answer · 3 👍 · confirmed <date> · sources unchanged"), and last a ``context_actions``
block with a ``feedback_buttons`` element (👍/👎; https://docs.slack.dev/reference/block-kit/block-elements/feedback-buttons-element).
Text from documents is escaped
(``&``, ``<``, ``>``), which also neutralises ``<!channel>``, ``<!here>`` and ``<@U…>``. Long answers
are split at paragraph, line, sentence or word boundaries so that the section texts, joined, equal the
escaped answer: nothing is lost. Limits: https://docs.slack.dev/reference/block-kit/blocks/section-block
(3,000 characters), https://docs.slack.dev/reference/block-kit/blocks (50 blocks per message).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import quote

from core.notices import stale_text
from core.types import Answer, Citation, Progress

MAX_SECTION_CHARS = 3000
MAX_BLOCKS = 50
MAX_MESSAGE_CHARS = 12000
"""Section text per message: a readable unit, far below chat.postMessage's 40,000-character cap."""
FEEDBACK_ACTION = "answer_feedback"
"""``action_id`` of the feedback buttons under every answer."""
FEEDBACK_VALUES = {"good-feedback": "up", "bad-feedback": "down"}
"""Button value → vote."""
VOTE_HINT = "Rate it below or react :+1: / :-1:."
_BREAKS = ("\n\n", "\n", ". ", "? ", "! ", "; ", ", ", " ")
_MASS_MENTION = re.compile(r"@(channel|here|everyone)\b", re.IGNORECASE)

Block = dict[str, Any]


@dataclass(frozen=True)
class SlackMessage:
    """One message to post: notification ``text`` (fallback) and ``blocks``."""

    text: str
    blocks: list[Block]


def escape(text: str) -> str:
    """Slack mrkdwn escaping of ``& < >`` (https://docs.slack.dev/messaging/formatting-message-text),
    and a zero-width joiner in bare ``@channel``/``@here``/``@everyone`` so nothing pings."""
    out = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _MASS_MENTION.sub(lambda m: "@\u2060" + m.group(1), out)


def split_text(text: str, limit: int = MAX_SECTION_CHARS) -> list[str]:
    """Split ``text`` into pieces of at most ``limit`` characters whose concatenation is ``text``.

    Breaks at the last paragraph, line, sentence, clause or word boundary that fits, cutting hard only
    inside a word longer than ``limit`` (never inside an ``&amp;``-style entity). No piece is blank.
    """
    pieces: list[str] = []
    rest = text
    while len(rest) > limit:
        cut = _cut_point(rest, limit)
        pieces.append(rest[:cut])
        rest = rest[cut:]
    if rest:
        pieces.append(rest)
    merged: list[str] = []
    for p in pieces:  # a blank piece (a long run of whitespace) is glued to its neighbour
        if merged and not p.strip() and len(merged[-1]) + len(p) <= limit:
            merged[-1] += p
        else:
            merged.append(p)
    return merged


def _cut_point(text: str, limit: int) -> int:
    window = text[:limit]
    for sep in _BREAKS:
        i = window.rfind(sep)
        if i > limit // 4:
            return i + len(sep)
    amp = window.rfind("&", max(0, limit - 6))
    return amp if amp > 0 and ";" not in window[amp:] else limit


def source_url(c: Citation, base_url: str) -> str:
    """``base_url/<file>``, with ``#page=N`` for a PDF citation that has a page."""
    url = f"{base_url.rstrip('/')}/{quote(c.file)}"
    if c.page is not None and c.file.lower().endswith(".pdf"):
        url += f"#page={c.page}"
    return url


def source_line(c: Citation, base_url: str | None) -> str:
    """``• <link|file> — p. 3 — Section`` (``pp. 3–4`` for a citation spanning pages) and, when the
    citation has one, a quoted span on the next line (escaped; the link only with ``base_url``)."""
    name = escape(c.file).replace("|", "¦")
    label = f"<{source_url(c, base_url)}|{name}>" if base_url else f"*{name}*"
    parts = [label]
    if c.page is not None:
        parts.append(f"pp. {c.page}–{c.page_end}" if c.page_end and c.page_end > c.page else f"p. {c.page}")
    if c.section:
        parts.append(escape(c.section))
    line = "• " + " — ".join(parts)
    return line + f"\n> “{escape(c.quote)}”" if c.quote else line


def feedback_block() -> Block:
    """The ``context_actions`` block with 👍/👎 ``feedback_buttons`` (action :data:`FEEDBACK_ACTION`)."""
    def button(text: str, value: str, label: str) -> dict[str, Any]:
        return {"text": {"type": "plain_text", "text": text, "emoji": True}, "value": value,
                "accessibility_label": label}

    return {"type": "context_actions", "elements": [{
        "type": "feedback_buttons", "action_id": FEEDBACK_ACTION,
        "positive_button": button("👍", "good-feedback", "This answer helped"),
        "negative_button": button("👎", "bad-feedback", "This answer did not help")}]}


def tail_blocks(answer: Answer, base_url: str | None = None, *, feedback: bool = True) -> list[Block]:
    """The blocks after the answer text: sources (if any), the provider context line and, with
    ``feedback``, the feedback buttons (last)."""
    blocks: list[Block] = []
    if answer.citations:
        lines = "\n".join(source_line(c, base_url) for c in _unique(answer.citations))
        for piece in split_text("*Sources*\n" + lines):
            blocks.append(_section(piece))
    blocks += stale_blocks(answer)
    label = verified_label(answer) if answer.cached else f"Answered by {escape(answer.provider)}"
    context = {"type": "mrkdwn", "text": f"{label} · {VOTE_HINT}" if feedback else label}
    return [*blocks, {"type": "context", "elements": [context]}, *([feedback_block()] if feedback else [])]


def stale_blocks(answer: Answer) -> list[Block]:
    """One context block per cited source whose latest version failed to index: ":warning: policy.pdf
    changed on … and could not be read: …; this answer uses the previous version" (escaped)."""
    return [{"type": "context", "elements": [{"type": "mrkdwn",
                                              "text": ":warning: " + escape(stale_text(s))[:2900]}]}
            for s in answer.stale_sources]


def verified_label(answer: Answer) -> str:
    """``✅ Verified answer · 3 👍 · confirmed 2026-11-29 · sources unchanged`` from the details of an
    answer served by the verified-answer cache (``upvotes``, ``confirmed``, ``sources``)."""
    d = answer.details
    parts = ["✅ Verified answer", f"{escape(d.get('upvotes', '0'))} 👍"]
    if d.get("confirmed"):
        parts.append(f"confirmed {escape(d['confirmed'])}")
    parts.append(f"sources {escape(d.get('sources', 'unchanged'))}")
    return " · ".join(parts)


def render_answer(answer: Answer, *, base_url: str | None = None,
                  feedback: bool = True) -> list[SlackMessage]:
    """The messages for ``answer``: answer sections, then :func:`tail_blocks`, ≤ 50 blocks each."""
    blocks = [_section(p) for p in split_text(escape(answer.answer.strip() or "(empty answer)"))]
    return pack(blocks + tail_blocks(answer, base_url, feedback=feedback))


def progress_title(p: Progress) -> str:
    """The task title of a progress step: "Searching 12 policies", "Reading 5 passages", "Answering"."""
    n = p.count or 0
    if p.step == "search":
        return f"Searching {n} {'policy' if n == 1 else 'policies'}"
    if p.step == "read":
        return f"Reading {n} {'passage' if n == 1 else 'passages'}"
    return "Answering"


def render_notice(text: str) -> SlackMessage:
    """A short message from the bot itself (not from documents; not escaped beyond ``& < >``)."""
    return SlackMessage(text=text, blocks=[_section(escape(text)[:MAX_SECTION_CHARS])])


def pack(blocks: Sequence[Block], max_blocks: int = MAX_BLOCKS,
         max_chars: int = MAX_MESSAGE_CHARS) -> list[SlackMessage]:
    """Group ``blocks`` in order into messages of at most ``max_blocks`` blocks and ``max_chars``
    characters of section text; each message's fallback text is its first section's text."""
    groups: list[list[Block]] = [[]]
    size = 0
    for b in blocks:
        n = len(b["text"]["text"]) if b["type"] == "section" else 0
        if groups[-1] and (len(groups[-1]) >= max_blocks or size + n > max_chars):
            groups.append([])
            size = 0
        groups[-1].append(b)
        size += n
    out = []
    for group in groups:
        first = next((b["text"]["text"] for b in group if b["type"] == "section"), "")
        out.append(SlackMessage(text=first or "policybot", blocks=group))
    return out


def section_texts(messages: Sequence[SlackMessage]) -> list[str]:
    """All section texts of ``messages`` in order (tests use it to check nothing was lost)."""
    return [b["text"]["text"] for m in messages for b in m.blocks if b["type"] == "section"]


def _section(text: str) -> Block:
    return {"type": "section", "text": {"type": "mrkdwn", "text": text}}


def _unique(citations: Sequence[Citation]) -> list[Citation]:
    seen: set[tuple[str, int | None, str]] = set()
    out = []
    for c in citations:
        key = (c.file, c.page, c.section)
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out
