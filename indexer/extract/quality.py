"""Quality gate for a PDF page's text layer: is it usable, or should the page be OCR'd?

Each test is a share with a threshold, so the reason recorded in the document's warnings can be read
by a person ("garbage text: 62% of characters are (cid:N) glyph codes"):

1. **empty** – fewer than :data:`MIN_TEXT_CHARS` non-space characters while the page shows an image
   (a scan, or a page saved as a picture).
2. **cid codes** – ``(cid:49)`` runs are what extractors print for glyphs of a font without a
   ToUnicode map (PDF 32000-1:2008 §9.10.2); ≥ :data:`MAX_CID_SHARE` of the characters.
3. **unmapped characters** – U+FFFD, private-use code points (U+E000–U+F8FF) and control characters,
   the other face of a missing ToUnicode map; ≥ :data:`MAX_BAD_CHAR_SHARE`.
4. **shifted letters** – a font whose codes map to the wrong letters ("Wkh srolf|" for "The policy")
   yields words without vowels and none of a language's most frequent words. Flagged when at least
   :data:`MIN_WORDS` letter words are present, ≥ :data:`MAX_VOWELLESS_SHARE` have no vowel, and fewer
   than :data:`MIN_FUNCTION_WORD_SHARE` are common English/German function words. On the corpus's
   848 text pages the vowel-less share stays below 0.18 (index pages with only 2% common words have
   no vowel-less words at all). Only words in Latin letters count: Arabic, Hebrew, Cyrillic or CJK
   words have none of these vowels, and such a page is a real text layer, not a shifted font.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

MIN_TEXT_CHARS = 20
MAX_CID_SHARE = 0.2
MAX_BAD_CHAR_SHARE = 0.2
MIN_WORDS = 20
MAX_VOWELLESS_SHARE = 0.35
MIN_FUNCTION_WORD_SHARE = 0.03

_CID = re.compile(r"\(cid:\d+\)")
_WORD = re.compile(r"[^\W\d_]{2,}")
_LATIN_WORD = re.compile(r"[a-zA-Z\u00c0-\u024f]+")
_VOWELS = frozenset("aeiouyäöüàâáéèêëíìîïóòôúùû")
_FUNCTION_WORDS_EN = ("the of and to in a is for or be by on with as at any are this that not from an shall "
                      "will if all such under which may per has have it its we you your our no")
_FUNCTION_WORDS_DE = ("der die das und ist in zu den von mit für auf nicht ein eine des im dem bei oder sind "
                      "wird werden als auch nach über aus")
FUNCTION_WORDS = frozenset(_FUNCTION_WORDS_EN.split()) | frozenset(_FUNCTION_WORDS_DE.split())
"""Frequent English and German words (the corpus's languages); a real page of either has many."""


@dataclass(frozen=True)
class TextVerdict:
    """``usable`` False means the text layer should be replaced by OCR; ``reason`` says why (``""``
    when usable)."""

    usable: bool
    reason: str = ""


def assess_text(text: str, has_image: bool) -> TextVerdict:
    """Judge one page's extracted text.

    Args:
        text: the page's text as extracted (before normalisation).
        has_image: the page paints an image large enough to hold text.

    Returns:
        A :class:`TextVerdict`; empty text without an image is "usable" (a blank page needs no OCR).
    """
    chars = [c for c in text if not c.isspace()]
    if len(chars) < MIN_TEXT_CHARS:
        return TextVerdict(False, "no text layer on a page with an image") if has_image else TextVerdict(True)
    cid = sum(len(m) for m in _CID.findall(text)) / len(chars)
    if cid >= MAX_CID_SHARE:
        return TextVerdict(False, f"garbage text: {cid:.0%} of characters are (cid:N) glyph codes")
    bad = sum(1 for c in chars if _unmapped(c)) / len(chars)
    if bad >= MAX_BAD_CHAR_SHARE:
        return TextVerdict(False, f"garbage text: {bad:.0%} of characters are unmapped glyphs")
    return _word_shape(text)


MIN_OCR_WORDS = 15
MIN_OCR_FUNCTION_SHARE = 0.03
MAX_DOUBTFUL_CONFIDENCE = 80.0
"""OCR output of at least :data:`MIN_OCR_WORDS` letter words is "not words" when fewer than
:data:`MIN_OCR_FUNCTION_SHARE` of them are common English/German words and Tesseract's mean word
confidence is below :data:`MAX_DOUBTFUL_CONFIDENCE`. A page read sideways or upside down gives
pronounceable nonsense ("ay} Jaye suead aay") with no common word at 67 confidence; its upright read
has 25 % common words at 96; a clean scanned table has few common words but a high confidence."""


def ocr_verdict(text: str, confidence: float) -> TextVerdict:
    """Whether OCR output ``text`` (mean word ``confidence`` 0–100) reads as words (see above)."""
    words = [w.lower() for w in _WORD.findall(text)]
    if len(words) < MIN_OCR_WORDS:
        return TextVerdict(True)
    common = sum(1 for w in words if w in FUNCTION_WORDS) / len(words)
    if common < MIN_OCR_FUNCTION_SHARE and confidence < MAX_DOUBTFUL_CONFIDENCE:
        return TextVerdict(False, f"no words ({common:.0%} common words, confidence {confidence:.0f})")
    return TextVerdict(True)


def _unmapped(char: str) -> bool:
    return char == "\ufffd" or "\ue000" <= char <= "\uf8ff" or unicodedata.category(char) == "Cc"


def _word_shape(text: str) -> TextVerdict:
    words = [w.lower() for w in _WORD.findall(text) if _LATIN_WORD.fullmatch(w)]
    if len(words) < MIN_WORDS:
        return TextVerdict(True)
    vowelless = sum(1 for w in words if not _VOWELS.intersection(w)) / len(words)
    function = sum(1 for w in words if w in FUNCTION_WORDS) / len(words)
    if vowelless >= MAX_VOWELLESS_SHARE and function < MIN_FUNCTION_WORD_SHARE:
        return TextVerdict(False, f"garbage text: {vowelless:.0%} of words have no vowel and "
                                  f"{function:.0%} are common words (font without a Unicode map?)")
    return TextVerdict(True)
