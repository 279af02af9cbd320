"""What comes in from Slack is markup, and not every message is a question — pure functions.

:func:`decode` turns Slack message text into what the user typed, once, before anything else sees it
(the answer service, the answer log, the verified-answer cache). Slack escapes ``&``, ``<`` and ``>``
as HTML entities and wraps links, mentions and special commands in ``<…>``
(https://docs.slack.dev/messaging/formatting-message-text): ``<https://x|label>`` → ``label``,
``<https://x>`` → ``https://x``, ``<mailto:a@b|a@b>`` → ``a@b``, ``<@U123|ann>`` → ``@ann``,
``<#C123|general>`` → ``#general``, ``<!here>`` → ``@here``, ``<!date^…|fallback>`` → ``fallback``.
The bot's own mention is removed. Emoji shortcodes (``:+1:``) stay as text.

:func:`message_kind` tells a question from an acknowledgement ("thanks, that helps", "ok :+1:") and
from content-free text (emoji only, a bare greeting). The rules are grammatical, not a list of
phrases: a message with a ``?`` or an interrogative word is a question; a message whose first clause
holds only words of thanks, assent or filler ("thanks so much", "ok great") and whose later clauses do
not start like a question ("and…", "is…", "can…") is an acknowledgement ("Thanks, that answers it.");
a message with no words (after emoji and mentions are removed) or only greetings is content-free.
Anything else is a question: when in doubt the bot answers.
"""

from __future__ import annotations

import html
import re
from typing import Literal

Kind = Literal["question", "ack", "empty"]

_TOKEN = re.compile(r"<([^<>]*)>")
_SHORTCODE = re.compile(r":[a-z0-9_+'\-]+:", re.IGNORECASE)
_MENTION = re.compile(r"[@#][\w.\-]+")
_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?", re.UNICODE)
_CLAUSE = re.compile(r"[,.;:!\n—–]+|\s-\s")

ACK_OPENERS = frozenset([
    "thanks", "thank", "thx", "ty", "tyvm", "cheers", "ta", "ok", "okay", "kk", "great", "perfect",
    "cool", "nice", "awesome", "brilliant", "excellent", "wonderful", "lovely", "super", "good",
    "fine", "sure", "yes", "yep", "yeah", "yup", "noted", "understood", "got", "gotcha", "appreciated",
    "alright", "fantastic", "amazing", "splendid", "merci", "danke"
])
"""Words of thanks or assent that open an acknowledgement."""
ACK_FILLER = frozenset([
    "you", "so", "much", "very", "all", "again", "a", "lot", "lots", "for", "the", "help", "that",
    "that's", "this", "it", "it's", "is", "was", "really", "helpful", "useful", "clear", "makes",
    "sense", "works", "indeed", "everyone", "team", "guys"
])
"""Words that may follow the opener in an acknowledgement's first clause ("thanks so much")."""
GREETINGS = frozenset([
    "hi", "hello", "hey", "hiya", "howdy", "morning", "evening", "afternoon", "yo"
])
"""Words that carry no question on their own."""
INTERROGATIVES = frozenset([
    "what", "how", "when", "where", "who", "whom", "whose", "which", "why", "what's", "how's"
])
"""A message containing one of these is treated as a question wherever it stands."""
CLAUSE_CUES = frozenset([
    "and", "but", "also", "or", "can", "could", "do", "does", "did", "is", "are", "was", "were",
    "will", "would", "should", "shall", "may", "might", "must", "have", "has", "am", "isn't", "aren't",
    "don't", "doesn't", "didn't", "please", "tell", "explain", "show", "list", "give", "any", "one",
    "another"
])
"""A clause starting with one of these (after the acknowledgement words) asks something."""
MAX_ACK_WORDS = 25
"""Longer messages are never taken for a bare acknowledgement."""


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


def _words(text: str) -> list[str]:
    bare = _MENTION.sub(" ", _SHORTCODE.sub(" ", text))
    return [w.lower().replace("’", "'") for w in _WORD.findall(bare)]


def _courtesy(word: str) -> bool:
    return word in ACK_OPENERS or word in ACK_FILLER or word in GREETINGS


def message_kind(text: str) -> Kind:
    """``"question"``, ``"ack"`` (thanks / assent, nothing asked) or ``"empty"`` (no words, or only
    greetings) for decoded message ``text`` (see the module docstring for the rules)."""
    words = _words(text)
    if not words or all(w in GREETINGS for w in words):
        return "empty"
    if "?" in text or any(w in INTERROGATIVES for w in words) or len(words) > MAX_ACK_WORDS:
        return "question"
    clauses = [c for c in (_words(part) for part in _CLAUSE.split(text)) if c]
    first, rest = clauses[0], clauses[1:]
    if first[0] not in ACK_OPENERS or not all(_courtesy(w) for w in first):
        return "question"
    return "question" if any(c[0] in CLAUSE_CUES for c in rest) else "ack"
