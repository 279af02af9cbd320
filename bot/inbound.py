"""What comes in from Slack is markup, and not every message is a question — pure functions.

:func:`decode` turns Slack message text into what the user typed, once, before anything else sees it
(the answer service, the answer log, the verified-answer cache). Slack escapes ``&``, ``<`` and ``>``
as HTML entities and wraps links, mentions and special commands in ``<…>``
(https://docs.slack.dev/messaging/formatting-message-text): ``<https://x|label>`` → ``label``,
``<https://x>`` → ``https://x``, ``<mailto:a@b|a@b>`` → ``a@b``, ``<@U123|ann>`` → ``@ann``,
``<#C123|general>`` → ``#general``, ``<!here>`` → ``@here``, ``<!date^…|fallback>`` → ``fallback``.
The bot's own mention is removed. Emoji shortcodes (``:+1:``) stay as text.

Whether the decoded text is a question (:func:`core.message_kind.message_kind`) is a text rule shared
with the console chat.
"""

from __future__ import annotations

import html
import re

_TOKEN = re.compile(r"<([^<>]*)>")


def _token(content: str, bot_user_id: str | None) -> str:
    """The plain text of one ``<…>`` token (its label or address, entities decoded)."""
    target, _, label = content.partition("|")
    label = html.unescape(label)
    if target.startswith("@"):
        if bot_user_id and target[1:] == bot_user_id:
            return " "
        return f"@{label}" if label else "@user"
    if target.startswith("#"):
        return f"#{label}" if label else "#channel"
    if target.startswith("!"):
        name = target[1:].split("^", 1)[0]
        return label or f"@{name}"
    if label:
        return label
    target = html.unescape(target)
    return target[len("mailto:"):] if target.startswith("mailto:") else target


def decode(text: str, bot_user_id: str | None = None) -> str:
    """Slack message markup → the text as typed (see the module docstring); whitespace collapsed.

    Each part is decoded exactly once: ``&amp;lt;`` (a user who typed ``&lt;``) becomes ``&lt;``."""
    out: list[str] = []
    pos = 0
    for m in _TOKEN.finditer(text):
        out.append(html.unescape(text[pos:m.start()]))
        out.append(_token(m.group(1), bot_user_id))
        pos = m.end()
    out.append(html.unescape(text[pos:]))
    return " ".join("".join(out).split())
