"""Sentence units do not end at prepositive abbreviations or at a German day number before a month."""

from __future__ import annotations

from core.answer.abbreviations import ends_with_abbreviation, is_non_boundary
from core.answer.sentences import split_units


def _texts(text: str) -> list[str]:
    return [u.text for u in split_units(text, 1)]


def test_amount_after_max_on_the_next_line_stays_in_the_sentence() -> None:
    text = ("Die Acme übernimmt bis zu einem Gesamtbetrag von max.\n"
            "CHF 80 000 (Europa) und CHF 20 000 (übrige Welt) pro Fall.")
    assert _texts(text) == ["Die Acme übernimmt bis zu einem Gesamtbetrag von max. CHF 80 000 (Europa) "
                            "und CHF 20 000 (übrige Welt) pro Fall."]


def test_a_line_starting_with_a_number_after_an_abbreviation_is_no_list_item() -> None:
    text = "Die Frist beträgt bei Globex max.\n3 Monate nach dem Ereignis. Danach erlischt der Anspruch."
    assert _texts(text) == ["Die Frist beträgt bei Globex max. 3 Monate nach dem Ereignis.",
                            "Danach erlischt der Anspruch."]


def test_english_and_german_abbreviations_inside_sentences() -> None:
    text = ("Initech pays approx. 40 % of the fare. See Art. 4 for the limits. Kosten für Brillen, z.B. "
            "Kontaktlinsen, sind inkl. Zubehör gedeckt. Der Anspruch besteht gem. Ziff. 5 Abs. 2 bzw. "
            "Nr. 7 des Vertrags.")
    assert _texts(text) == [
        "Initech pays approx. 40 % of the fare.", "See Art. 4 for the limits.",
        "Kosten für Brillen, z.B. Kontaktlinsen, sind inkl. Zubehör gedeckt.",
        "Der Anspruch besteht gem. Ziff. 5 Abs. 2 bzw. Nr. 7 des Vertrags."]


def test_german_ordinal_date_is_no_sentence_end() -> None:
    text = "Es gilt das Gesetz vom 18. März 1994 über die Reisen. Die Zahlung erfolgt in 30 Tagen."
    assert _texts(text) == ["Es gilt das Gesetz vom 18. März 1994 über die Reisen.",
                            "Die Zahlung erfolgt in 30 Tagen."]


def test_sentence_final_abbreviations_and_plain_words_still_end_sentences() -> None:
    text = "Covered are bags, shoes, cameras etc. The insurer pays at most the new value. It pays 30 %."
    assert _texts(text) == ["Covered are bags, shoes, cameras etc.",
                            "The insurer pays at most the new value.", "It pays 30 %."]


def test_abbreviation_predicates() -> None:
    assert ends_with_abbreviation("bis zu einem Betrag von max.")
    assert ends_with_abbreviation("(vgl.")
    assert not ends_with_abbreviation("the limit applies.")
    assert not ends_with_abbreviation("shoes etc.")
    assert is_non_boundary("vom 18.", "März 1994")
    assert not is_non_boundary("after 18.", "The insurer")
