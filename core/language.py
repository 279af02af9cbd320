"""Language identification of documents and questions.

:func:`detect_language` wraps py3langid (a maintained fork of langid.py: a multinomial naive Bayes
classifier over byte n-grams trained on 97 languages; Lui & Baldwin, "langid.py: An Off-the-shelf
Language Identification Tool", ACL 2012). It is deterministic and needs no model download (the model
ships in the wheel). Each indexed document stores its language (``documents.language``) so that the
answer service can tell when the question and the scoped documents differ in language.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable

log = logging.getLogger(__name__)

SAMPLE_CHARS = 20_000
"""Characters of a document given to the classifier (its start: enough for a stable answer)."""
MIN_LETTERS = 20
"""Below this many letters a text has no detectable language (``""``)."""
MIN_QUESTION_LETTERS = 12
NAMES = {"en": "English", "de": "German", "fr": "French", "it": "Italian", "es": "Spanish",
         "pt": "Portuguese", "nl": "Dutch", "sv": "Swedish", "da": "Danish", "no": "Norwegian",
         "fi": "Finnish", "pl": "Polish", "cs": "Czech", "hu": "Hungarian", "ro": "Romanian",
         "tr": "Turkish", "ru": "Russian", "uk": "Ukrainian", "el": "Greek", "ja": "Japanese",
         "zh": "Chinese", "ko": "Korean", "hi": "Hindi", "ar": "Arabic", "he": "Hebrew"}
"""English names of common ISO 639-1 codes, for prompts (other codes are shown as the code)."""
_LETTER = re.compile(r"[^\W\d_]", re.UNICODE)


def detect_language(text: str, min_letters: int = MIN_LETTERS) -> str:
    """ISO 639-1 code of the language of ``text`` (its first :data:`SAMPLE_CHARS` characters), or
    ``""`` when it has fewer than ``min_letters`` letters."""
    sample = text[:SAMPLE_CHARS]
    if len(_LETTER.findall(sample)) < min_letters:
        return ""
    import py3langid  # loads its bundled model on first use

    code, _score = py3langid.classify(sample)
    return str(code)


def question_language(question: str) -> str:
    """The language of a question (``""`` when it is too short to tell)."""
    return detect_language(question, MIN_QUESTION_LETTERS)


def document_language(texts: Iterable[str]) -> str:
    """The language of a document given its block texts in reading order."""
    sample: list[str] = []
    size = 0
    for t in texts:
        sample.append(t)
        size += len(t) + 1
        if size >= SAMPLE_CHARS:
            break
    return detect_language("\n".join(sample))


def language_name(code: str) -> str:
    """``"German"`` for ``"de"``; the code itself when it is not in :data:`NAMES`."""
    return NAMES.get(code, code)


def translation_target(question: str, document_languages: Iterable[str]) -> str:
    """The language to translate ``question`` into before searching documents written in
    ``document_languages`` (codes, ``""`` = unknown and ignored): their one language when they share
    one and the question is detectably in another, else ``""`` (no translation)."""
    langs = {lang for lang in document_languages if lang}
    if len(langs) != 1:
        return ""
    (target,) = langs
    asked = question_language(question)
    return target if asked and asked != target else ""
