"""Is a chat message a question? Text rules shared by every surface (Slack, the console chat).

:func:`message_kind` tells a question from an acknowledgement ("thanks, that helps", "ok :+1:") and
from content-free text (emoji only, a bare greeting). The rules are grammatical, not a list of
phrases: a message with a ``?`` or an interrogative word is a question; a message whose first clause
holds only words of thanks, assent or filler ("thanks so much", "ok great") and whose later clauses do
not start like a question ("and…", "is…", "can…") is an acknowledgement ("Thanks, that answers it.");
a message with no words (after emoji shortcodes and @/# mentions are removed) or only greetings is
content-free. Anything else is a question: when in doubt the bot answers.

What a surface does with each kind (docs/slack.md): an ``ack`` gets no answer; an ``empty`` message
gets the one-line :data:`GREETING_HINT` (in Slack only when it starts a conversation, not in a thread).
"""

from __future__ import annotations

import re
from typing import Literal

Kind = Literal["question", "ack", "empty"]

GREETING_HINT = "Ask me a question about the company policies; I answer with quotes from the policy files."
"""The one-line reply to a content-free message (a bare greeting, emoji only)."""

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
