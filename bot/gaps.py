"""The weekly knowledge-gap digest in Slack: its rendering (pure) and the slack_sdk :class:`SlackNotifier`.

One message per owner: a header naming the owner's folders and the window, then one section per group
(count and signals, 2–3 example questions, nearest documents, 👎 reasons), largest first, as many as
fit one message (:data:`MAX_GROUP_BLOCKS` sections, :data:`MAX_DIGEST_CHARS` characters); a last
context line counts the groups left out and points to ``policybot gaps``. Users are posted in their
DM with the app (``conversations.open``, scope ``im:write``), channels directly (the bot must be a
member; scope ``chat:write``). Text from questions and documents is escaped (:func:`bot.render.escape`).
"""

from __future__ import annotations

import logging

from slack_sdk import WebClient

from bot.render import Block, SlackMessage, escape
from core.gaps.jobs import OwnerDigest
from core.gaps.render import day, doc_line, signal_summary
from core.gaps.report import GapGroup

log = logging.getLogger(__name__)

MAX_GROUP_BLOCKS = 40
MAX_DIGEST_CHARS = 11000
"""Section text per digest: below :data:`bot.render.MAX_MESSAGE_CHARS`, so a digest is one message."""
MAX_ITEM_CHARS = 300
"""An example question, document line or 👎 reason is cut to this many characters."""


def group_text(g: GapGroup) -> str:
    """One group as mrkdwn: count and signals, examples (quoted), nearest documents, 👎 reasons."""
    lines = [f"*{g.count} question{'s' if g.count != 1 else ''}* · {signal_summary(g)}"]
    lines += [f"> {escape(_cut(e))}" for e in g.examples]
    if g.documents:
        lines.append("Nearest: " + "; ".join(escape(_cut(doc_line(d))) for d in g.documents))
    if g.reasons:
        lines.append("👎 " + "; ".join(f"“{escape(_cut(r))}”" for r in g.reasons))
    return "\n".join(lines)[:3000]


def render_digest(digest: OwnerDigest) -> SlackMessage:
    """The digest as one Slack message (header, group sections, a footer context line)."""
    folders = ", ".join(f"`{escape(g)}`" for g in digest.globs)
    head = (f"*Knowledge gaps in your policies* ({folders}), {day(digest.since)} – {day(digest.until)}: "
            f"questions the policies did not answer well, grouped by meaning.")
    blocks: list[Block] = [_section(head)]
    size = len(head)
    shown = 0
    for g in digest.groups[:MAX_GROUP_BLOCKS]:
        text = group_text(g)
        if size + len(text) > MAX_DIGEST_CHARS:
            break
        blocks.append(_section(text))
        size += len(text)
        shown += 1
    rest = len(digest.groups) - shown
    foot = "Run `policybot gaps` for the full report." if not rest else \
        f"{rest} more group{'s' if rest != 1 else ''} not shown: run `policybot gaps` for the full report."
    blocks.append({"type": "context", "elements": [{"type": "mrkdwn", "text": foot}]})
    text = f"Knowledge gaps in your policies: {len(digest.groups)} groups of questions"
    return SlackMessage(text=text, blocks=blocks)


class SlackNotifier:
    """:class:`core.gaps.jobs.Notifier` posting with a slack_sdk ``WebClient`` (raises
    ``SlackApiError`` when Slack refuses)."""

    def __init__(self, client: WebClient) -> None:
        self.client = client

    def send(self, digest: OwnerDigest) -> None:
        """Post ``digest`` to its owner: a channel id as is, a user id in the app's DM with them."""
        channel = digest.owner
        if channel[:1] in {"U", "W"}:
            channel = str(self.client.conversations_open(users=digest.owner)["channel"]["id"])
        msg = render_digest(digest)
        self.client.chat_postMessage(channel=channel, text=msg.text, blocks=msg.blocks, unfurl_links=False)
        log.info("gap digest (%d groups) posted to %s", len(digest.groups), digest.owner)


def _section(text: str) -> Block:
    return {"type": "section", "text": {"type": "mrkdwn", "text": text}}


def _cut(text: str) -> str:
    return text if len(text) <= MAX_ITEM_CHARS else text[:MAX_ITEM_CHARS - 1] + "…"
