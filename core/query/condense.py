"""Follow-ups condensed into a standalone question from the thread history.

``condense("And for Plan B?", history)`` after "Is there a cap on ambulance charges for Plan A?" →
"Is there a cap on ambulance charges for Plan B?". Data flow:

history (user turns, oldest first) → the previous *standalone* question (each earlier follow-up is
itself condensed, so chains of follow-ups keep their context) → :func:`is_follow_up` → the LLM
rewriter when one is given and it succeeds (:mod:`core.query.rewriter`) → else the deterministic
merge :func:`merge`:

1. Slot swap — an elliptical follow-up (only a lead-in such as "and", "what about", fillers and
   exact-match terms: "And for Plan B?", "What about 5 lakh?") replaces the previous question's term
   of the same slot (tier keyword, unit, or product name), or is appended ("… for Plan B?").
2. Context carry — otherwise the lead-in is dropped; a demonstrative ("that domestic cover") becomes
   "the <names> domestic cover", where <names> are the product/document names of the previous
   question; names not placed that way, and — when the follow-up leans on a bare pronoun ("how much
   would they pay?") and no demonstrative already placed the names, has at most one content word
   ("What is the limit?"), or is only a short noun phrase ("And for the other parent?") — the
   previous question's topic words, are added in parentheses.

Non-follow-ups pass through unchanged.
"""

from __future__ import annotations

import logging
import re
import unicodedata
from collections.abc import Sequence

from core.llm.base import AnswerProvider
from core.query.doc_scope import DocumentCatalog, detect_scope
from core.query.exact import ExactTerm, extract_terms
from core.query.rewriter import ProviderRewriter, Rewriter
from core.query.text import STOPWORDS, word_list
from core.types import Turn

log = logging.getLogger(__name__)

LEAD_IN = re.compile(r"^\s*(?:(?:and|so|but|also|then|ok(?:ay)?|well)\b[\s,]*)*"
                     r"(?:(?:what|how)\s+about|what\s+if|same\s+for)?\b[\s,]*", re.IGNORECASE)
PRONOUNS = frozenset(word_list("it its they them their that this those these same"))
_DETERMINERS = frozenset(word_list("that this those these"))
_VERBISH = frozenset(word_list(
    "apply applies cover covers mean means include includes work works count cost costs pay pays happen "
    "happens matter matters is was are were"))
_FILLERS = frozenset(word_list(
    "for the a an under in with about on of to plan option variant tier case one same then please policy "
    "cover and or"))
"""Words an elliptical follow-up may hold besides its terms ("And for the Plan B option?")."""
_QUESTION_WORDS = frozenset(word_list(
    "what which how much many does do is are can could would should will there any when where why who "
    "whom tell me please"))
_WORD = re.compile(r"[^\W_][\w'’-]*", re.UNICODE)
SHORT_FOLLOW_UP_WORDS = 4
"""A question of at most this many words after a previous question is treated as a follow-up."""


def condense(question: str, history: Sequence[Turn], llm: AnswerProvider | Rewriter | None = None, *,
             catalog: DocumentCatalog | None = None) -> str:
    """The standalone form of ``question`` given the thread ``history`` (oldest first).

    Args:
        question: the new user message.
        history: earlier turns; a last user turn equal to ``question`` is ignored.
        llm: a :class:`~core.query.rewriter.Rewriter`, or an answer provider (wrapped in
            :class:`~core.query.rewriter.ProviderRewriter`); ``None`` uses the deterministic merge only.
        catalog: when given, "names a document" is decided by :func:`detect_scope`.

    Returns:
        ``question`` unchanged when it is not a follow-up; else the rewrite (LLM) or :func:`merge`.
    """
    previous = previous_question(question, history, catalog)
    if previous is None or not is_follow_up(question, previous, catalog):
        return question
    rewriter = _as_rewriter(llm)
    if rewriter is not None:
        rewritten = rewriter.rewrite(question, list(history))
        if rewritten:
            log.info("follow-up condensed by %s", rewriter.name)
            return rewritten
    merged = merge(question, previous)
    log.debug("follow-up %r condensed to %r", question, merged)
    return merged


def _as_rewriter(llm: AnswerProvider | Rewriter | None) -> Rewriter | None:
    if llm is None or isinstance(llm, Rewriter):
        return llm
    return ProviderRewriter(llm)


def previous_question(question: str, history: Sequence[Turn], catalog: DocumentCatalog | None = None
                      ) -> str | None:
    """The standalone form of the last earlier user question (deterministic), or ``None``."""
    asked = [t.text.strip() for t in history if t.role == "user" and t.text.strip()]
    if asked and asked[-1] == question.strip():
        asked = asked[:-1]
    standalone: str | None = None
    for text in asked:
        follows = standalone is not None and is_follow_up(text, standalone, catalog)
        standalone = merge(text, standalone) if follows and standalone else text
    return standalone


def is_follow_up(question: str, previous: str | None, catalog: DocumentCatalog | None = None) -> bool:
    """True when ``question`` leans on ``previous``: it starts with a lead-in ("and", "so", "what
    about"), uses a pronoun ("it", "that", "they"), or is short — unless it names a product or
    document itself and is more than an elliptical slot swap ("And under Sunrise Health?")."""
    if not previous:
        return False
    if _names_document(question, catalog):
        return _is_elliptical(question)
    words = [w.lower() for w in _WORD.findall(question)]
    lead = LEAD_IN.match(question)
    return bool(lead and lead.group(0).strip()) or any(w in PRONOUNS for w in words) or len(
        words) <= SHORT_FOLLOW_UP_WORDS


def merge(question: str, previous: str) -> str:
    """Deterministic merge of a follow-up with the previous standalone question (module doc)."""
    question = unicodedata.normalize("NFKC", question)  # term offsets refer to NFKC text
    previous = unicodedata.normalize("NFKC", previous)
    body = _strip_lead_in(question)
    if _is_elliptical(question):
        return _swap_slots(body, previous)
    return _carry_context(body, previous)


def _strip_lead_in(question: str) -> str:
    body = _after_lead_in(question).strip()
    return body[:1].upper() + body[1:] if body else question.strip()


def _after_lead_in(question: str) -> str:
    lead = LEAD_IN.match(question)
    return question[lead.end():] if lead else question


def _names_document(question: str, catalog: DocumentCatalog | None) -> bool:
    if catalog is not None:
        return detect_scope(question, catalog) is not None
    return any(_is_product(t) for t in extract_terms(question))


def _is_product(term: ExactTerm) -> bool:
    return term.slot == "name" and (len(term.text.split()) > 1 or not term.text.isupper())


def _is_elliptical(question: str) -> bool:
    """Only a lead-in, fillers and exact-match terms ("And for Plan B?", "What about Rs 5 lakh?")."""
    body = _after_lead_in(question)
    terms = extract_terms(body)
    rest = body
    for term in sorted(terms, key=lambda t: -t.start):
        rest = rest[:term.start] + " " + rest[term.start + len(term.text):]
    leftover = [w for w in _WORD.findall(rest.lower()) if w not in _FILLERS]
    return bool(terms) and not leftover


def _swap_slots(body: str, previous: str) -> str:
    """Put each term of ``body`` in place of the previous question's term of the same slot; a new
    product name replaces every product name (``Globex "Happy Family"`` → ``Sunrise
    Health``); terms without a counterpart are appended ("… for Plan B?")."""
    out = previous
    appended: list[str] = []
    for term in extract_terms(body):
        same = [t for t in extract_terms(out) if t.slot == term.slot and t.text != term.text
                and (t.slot != "name" or (_is_product(t) and _is_product(term)))]
        if not same:
            appended.append(term.text)
            continue
        replaced = same if term.slot == "name" else same[:1]
        for old in reversed(replaced):
            new = term.text if old is same[0] else ""
            out = out[:old.start] + new + out[old.start + len(old.text):]
        out = " ".join(re.sub(r"[\"“‘]\s*[\"”’]", " ", out).split()).replace(" ,", ",")
    if appended:
        stem = out.rstrip().rstrip("?.! ")
        out = f"{stem} for {' and '.join(appended)}?"
    return out


def _carry_context(body: str, previous: str) -> str:
    names = _names_in(previous, exclude=body)
    words = [w.lower() for w in _WORD.findall(body)]
    placed = False
    if names:
        body, placed = _resolve_demonstrative(body, " ".join(names))
    bare = any(w in PRONOUNS - _DETERMINERS or (w in _DETERMINERS and _bare(words, i))
               for i, w in enumerate(words))
    content = [w for w in words if w not in STOPWORDS and w not in _QUESTION_WORDS]
    phrase = _is_bare_phrase(words)
    needs_topic = (bare and not placed) or len(content) <= 1 or phrase
    topic = _topic_words(previous, names, exclude=words) if needs_topic else []
    context = ("" if placed else " ".join(names)) + (": " if topic and not placed and names else "")
    context += " ".join(topic)
    if not context.strip():
        return body
    return f"{body} ({context.strip()})"


def _is_bare_phrase(words: Sequence[str]) -> bool:
    """A follow-up that is only a short noun phrase ("for the other parent", "fathers", "and
    acupuncture"): no verb or question word, so it asks the previous question about something else."""
    return 0 < len(words) <= SHORT_FOLLOW_UP_WORDS and not any(
        w in _QUESTION_WORDS or w in _VERBISH for w in words)


def _names_in(text: str, *, exclude: str) -> list[str]:
    """Product/document names and tier names of ``text`` that ``exclude`` does not already mention."""
    low = exclude.lower()
    return [t.text for t in extract_terms(text)
            if (_is_product(t) or t.slot not in {"name", "clause", "money"} and t.kind == "name")
            and t.text.lower() not in low]


def _resolve_demonstrative(body: str, names: str) -> tuple[str, bool]:
    """"that domestic cover" → "the <names> domestic cover" (first demonstrative determiner only)."""
    words = [m for m in _WORD.finditer(body)]
    lowered = [m.group(0).lower() for m in words]
    last = names.split()[-1].lower()
    for i, m in enumerate(words):
        if lowered[i] in _DETERMINERS and not _bare(lowered, i):
            end = words[i + 1].end() if lowered[i + 1] == last else m.end()  # "this policy" + "... Policy"
            return body[:m.start()] + f"the {names}" + body[end:], True
    return body, False


def _bare(words: Sequence[str], i: int) -> bool:
    """True when the demonstrative at ``words[i]`` stands alone ("is that covered?", "does this apply")."""
    nxt = words[i + 1] if i + 1 < len(words) else ""
    return (not nxt or nxt in STOPWORDS or nxt in _VERBISH or nxt in _QUESTION_WORDS
            or nxt.endswith(("ed", "ing", "ly")))


def _topic_words(previous: str, names: Sequence[str], *, exclude: Sequence[str]) -> list[str]:
    named = {w.lower() for n in names for w in _WORD.findall(n)}
    seen = set(exclude) | named
    out: list[str] = []
    for w in _WORD.findall(previous):
        low = w.lower()
        if low in STOPWORDS or low in _QUESTION_WORDS or low in seen or not re.search(r"[^\W\d]", low):
            continue
        seen.add(low)
        out.append(w)
    return out
