"""Say what happened: an :class:`~core.service.AnswerService` wrapper that replaces the generic refusal
with the real reason, and marks answers quoting a source whose latest version failed to index.

Before answering (:meth:`NoticedAnswerService.ask_stream`):

* the index is empty → "the policy index is empty" (what an admin runs);
* the scope holds no indexed document → names the scope;
* the question is longer than ``answer.max_question_chars`` → its last question sentence that fits is
  answered, with a note; without one, the limit is said.

After answering:

* **stale sources** — a cited file whose documents row is ``failed`` while its previous chunks still
  serve gets a :class:`~core.types.StaleSource` ("policy.pdf changed on … and could not be read: …;
  this answer uses the previous version": :func:`stale_text`);
* **language** — a refusal for a question the language guesser (:class:`LanguageGuesser`) places,
  with confidence ≥ :data:`LANGUAGE_CONFIDENCE`, outside ``embedding.languages`` says so and points to
  the multilingual option.
"""

from __future__ import annotations

import datetime as dt
import logging
import re
from collections.abc import Iterator, Sequence
from dataclasses import replace
from functools import cached_property
from typing import TYPE_CHECKING, Protocol

from core.config import Settings
from core.service import AnswerService, StreamItem
from core.types import Answer, StaleSource, Turn

if TYPE_CHECKING:
    from core.store import Store

log = logging.getLogger(__name__)

ALL = "**"

LANGUAGE_CONFIDENCE = 0.9
"""Normalised probability above which a language guess is trusted (py3langid's ``norm_probs``); below
it nothing is said (short questions are often ambiguous)."""
MIN_LANGUAGE_CHARS = 12
"""Shorter questions are not guessed (too little text for a reliable guess)."""
PROVIDER = "policybot"
MULTILINGUAL_HINT = ("an admin can switch embedding.model to a multilingual model (e.g. "
                     "paraphrase-multilingual-MiniLM-L12-v2, see the README) and list its languages in "
                     "embedding.languages")
_SENTENCE_END = re.compile(r"(?<=[.?!\n])")
"""Split point after each sentence end (a zero-width split: linear in the text, where the old
``[^.?!\\n]*\\?`` search restarted at every character and took minutes on a 100 kB message)."""
LANGUAGE_NAMES = {"de": "German", "fr": "French", "es": "Spanish", "it": "Italian", "pt": "Portuguese",
                  "nl": "Dutch", "hi": "Hindi", "zh": "Chinese", "ja": "Japanese", "ko": "Korean",
                  "ru": "Russian", "ar": "Arabic", "pl": "Polish", "tr": "Turkish", "sv": "Swedish",
                  "da": "Danish", "no": "Norwegian", "fi": "Finnish", "cs": "Czech", "en": "English"}


class LanguageGuesser(Protocol):
    """Guesses the language of a short text: ``(ISO 639-1 code, probability 0..1)``."""

    def guess(self, text: str) -> tuple[str, float]:
        """The most likely language of ``text`` and its normalised probability."""
        ...


class LangidGuesser:
    """py3langid (a maintained fork of langid.py, Lui & Baldwin 2012; the model ships in the package)."""

    @cached_property
    def _identifier(self) -> object:
        from py3langid.langid import MODEL_FILE, LanguageIdentifier

        return LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=True)

    def guess(self, text: str) -> tuple[str, float]:
        """``(code, probability)`` from py3langid's normalised probabilities."""
        lang, prob = self._identifier.classify(text)  # type: ignore[attr-defined]
        return str(lang), float(prob)


class FixedGuesser:
    """Test fake: always the same guess."""

    def __init__(self, lang: str = "en", prob: float = 1.0) -> None:
        self.result = (lang, prob)

    def guess(self, text: str) -> tuple[str, float]:
        """The fixed guess."""
        return self.result


def stale_text(s: StaleSource) -> str:
    """``policy.pdf changed on 2026-11-30 and could not be read: <reason>; this answer uses the
    previous version``."""
    day = dt.datetime.fromtimestamp(s.changed_at).date().isoformat() if s.changed_at else "a recent date"
    return (f"{s.file} changed on {day} and could not be read: {s.reason}; this answer uses the previous "
            "version")


def refusal(text: str, reason: str) -> Answer:
    """A refusal :class:`Answer` saying ``text``; ``details["notice"]`` = ``reason``."""
    return Answer(answer=text, citations=[], provider=PROVIDER, found=False, details={"notice": reason})


def last_question(text: str, limit: int) -> str | None:
    """The last question sentence of ``text`` (a run of text up to a ``?`` after the previous ``.``,
    ``?``, ``!`` or line break), whitespace collapsed, of at most ``limit`` characters and two words;
    None when there is none. Linear in ``len(text)``."""
    for piece in reversed(_SENTENCE_END.split(text)):
        if not piece.endswith("?"):
            continue
        part = " ".join(piece.split())
        if 0 < len(part) <= limit and len(part.split()) >= 2:
            return part
    return None


class NoticedAnswerService:
    """``inner`` with the notices of the module docstring.

    Args:
        inner: the answer service (plain, or behind the verified-answer cache).
        store: the index (chunk count, documents rows for scope and staleness).
        settings: ``answer.max_question_chars``, ``embedding.languages`` and ``embedding.model``.
        guesser: language guesser (default :class:`LangidGuesser`, loaded on the first refusal).
    """

    def __init__(self, inner: AnswerService, store: Store, settings: Settings,
                 guesser: LanguageGuesser | None = None) -> None:
        self.inner = inner
        self.store = store
        self.settings = settings
        self.guesser = guesser or LangidGuesser()

    def ask(self, question: str, *, history: Sequence[Turn] = (), scope: Sequence[str] = (ALL,)) -> Answer:
        """Answer ``question`` (see :meth:`ask_stream`)."""
        final: Answer | None = None
        for item in self.ask_stream(question, history=history, scope=scope):
            if isinstance(item, Answer):
                final = item
        assert final is not None
        return final

    def ask_stream(self, question: str, *, history: Sequence[Turn] = (),
                   scope: Sequence[str] = (ALL,)) -> Iterator[StreamItem]:
        """The inner service's deltas, then its :class:`Answer` with notices; or only a notice."""
        early = self._empty_index() or self._empty_scope(scope)
        asked, note = self._shortened(question)
        if early is None and asked is None:
            early = refusal(self._too_long_text(question), "question_too_long")
        if early is not None:
            yield early
            return
        assert asked is not None
        if note:
            yield f"{note}\n\n"
        final: Answer | None = None
        streamed = False
        for item in self.inner.ask_stream(asked, history=history, scope=scope):
            if isinstance(item, Answer):
                final = item
            else:
                streamed = streamed or (isinstance(item, str) and bool(item))
                yield item
        assert final is not None
        hint = "" if final.found else self._language_hint(question)
        if hint and streamed:
            yield f"\n\n{hint}"
        yield self._after(final, note, hint)

    # ---- before -----------------------------------------------------------------------------------
    def _empty_index(self) -> Answer | None:
        if self.store.count_chunks() > 0:
            return None
        return refusal("The policy index is empty: no policy document has been indexed yet, so there is "
                       "nothing to answer from. An admin indexes the policy folder with `policybot index "
                       "FOLDER` (or `policybot run FOLDER`).", "empty_index")

    def _empty_scope(self, scope: Sequence[str]) -> Answer | None:
        if any(g.strip().strip("/") in (ALL, "*", "") for g in scope):
            return None
        from core.retrieval import scope_paths  # LanceDB: only when a question is asked

        docs = self.store.documents()
        serving = [p for p, d in docs.items() if d.status == "indexed" or d.chunk_count]
        if scope_paths(serving, scope):
            return None
        return refusal(f"No indexed policy document is inside this conversation's scope "
                       f"({', '.join(scope)}), so I cannot answer here. {len(serving)} documents are indexed "
                       "elsewhere; an admin can widen the scope (slack.channels) or index documents in that "
                       "folder.", "empty_scope")

    def _shortened(self, question: str) -> tuple[str | None, str]:
        """``(text to ask, note)``: the question itself when short enough, else its last question
        sentence that fits, else ``(None, "")``."""
        limit = self.settings.answer.max_question_chars
        if len(question) <= limit:
            return question, ""
        part = last_question(question, limit)
        if part is None:
            return None, ""
        return part, (f"Your message is {len(question):,} characters long (the limit is {limit:,}); "
                      f"I answered its question: \u201c{part}\u201d")

    def _too_long_text(self, question: str) -> str:
        limit = self.settings.answer.max_question_chars
        return (f"Your question is {len(question):,} characters long; I can take questions of up to "
                f"{limit:,} characters. Ask the question itself in a sentence or two (quote only the part "
                "of a document you need).")

    # ---- after ------------------------------------------------------------------------------------
    def _after(self, answer: Answer, note: str, hint: str) -> Answer:
        text = answer.answer
        if note:
            text = f"{note}\n\n{text}"
        if hint:
            text = f"{text}\n\n{hint}"
        stale = self._stale(answer)
        if text == answer.answer and not stale:
            return answer
        details = dict(answer.details)
        if note:
            details["notice"] = "question_shortened"
        elif hint:
            details["notice"] = "language"
        return replace(answer, answer=text, stale_sources=stale, details=details)

    def _stale(self, answer: Answer) -> list[StaleSource]:
        files = list(dict.fromkeys(c.file for c in answer.citations))
        if not files:
            return []
        docs = self.store.documents()
        out = []
        for f in files:
            d = docs.get(f)
            if d is not None and d.status == "failed" and d.chunk_count:
                out.append(StaleSource(f, d.mtime_ns / 1e9 if d.mtime_ns else d.indexed_at, d.error))
        return out

    def _language_hint(self, question: str) -> str:
        covered = set(self.settings.embedding.languages)
        if not covered or len(question.strip()) < MIN_LANGUAGE_CHARS:
            return ""
        try:
            lang, prob = self.guesser.guess(question)
        except Exception as exc:  # a missing or broken guesser must never cost the answer
            log.info("language guess failed: %s", exc)
            return ""
        if lang in covered or prob < LANGUAGE_CONFIDENCE:
            return ""
        name = LANGUAGE_NAMES.get(lang, f"language '{lang}'")
        codes = ", ".join(sorted(covered))
        return (f"This question looks like {name}; the embedding model ({self.settings.embedding.model}) "
                f"covers {codes} only, so questions in {name} are often not matched. Ask in "
                f"{LANGUAGE_NAMES.get(sorted(covered)[0], codes)}, or {MULTILINGUAL_HINT}.")
