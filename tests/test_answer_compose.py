"""Answer composition: what a quoted unit brings along (core.answer.attached, core.answer.compose)."""

from __future__ import annotations

import math

import pytest

from core.answer.attached import label_range
from core.answer.extractive import ExtractiveAnswerer
from core.embedder import FakeEmbedder
from core.llm.base import Generation, GenerationRequest
from tests.retrieval_helpers import ANSWER, scored

AYURVEDA = ("4. Ayurvedic treatment: we pay in-patient Ayurvedic treatment charges up to the limits linked "
            "to the sum insured, as mentioned in the table below;")
AYURVEDA_TABLE = ("| Sum Insured (Rs.) | Limit per Policy Period (Rs.) |\n| --- | --- |\n"
                  "| Upto 3,00,000 | 10,000 |\n| >3,00,000 to 15,00,000 | 15,000 |\n| >15,00,000 | 25,000 |")


def _ask(question: str, *sources: tuple[str, str, int]) -> Generation:
    """Ask over sources given as (text, path, ordinal), in rank order (reranker scores 1.0, 0.9, …):
    equal paths with consecutive ordinals are a document's consecutive chunks."""
    chunks = [scored(text, 1.0 - 0.1 * i, path=path, ordinal=ordinal)
              for i, (text, path, ordinal) in enumerate(sources)]
    return ExtractiveAnswerer(ANSWER, FakeEmbedder()).generate(GenerationRequest(question, chunks))


@pytest.mark.parametrize(("cell", "low", "high"), [
    ("8001 to 10000", 8001, 10000),
    (">3,00,000 to 15,00,000", 300000, 1500000),
    ("5000 or below", -math.inf, 5000),
    ("Upto 3,00,000", -math.inf, 300000),
    ("Rs. 5 Lacs and Above", 500000, math.inf),
])
def test_a_label_cell_states_its_range(cell: str, low: float, high: float) -> None:
    assert label_range(cell) == (low, high)


def test_an_open_bound_excludes_its_number_and_a_bare_number_is_no_range() -> None:
    above, below = label_range("Above 10000"), label_range("< Rs. 5 Lacs")
    assert above is not None and above[0] > 10000 and below is not None and below[1] < 500000
    assert label_range("10000") is None


def test_a_sentence_pointing_at_the_table_below_brings_the_row_holding_the_asked_quantity() -> None:
    gen = _ask("With a 5 lakh sum insured, how much is covered for in-patient Ayurvedic treatment?",
               (f"{AYURVEDA}\n{AYURVEDA_TABLE}", "fm.pdf", 0))
    assert gen.found and gen.text.startswith("4. Ayurvedic treatment")
    assert "Sum Insured (Rs.) | Limit per Policy Period (Rs.) … >3,00,000 to 15,00,000 | 15,000" in gen.text
    assert "25,000" not in gen.text and "10,000" not in gen.text


def test_a_table_in_the_next_chunk_is_quoted_and_cited_with_that_chunk() -> None:
    gen = _ask("With a 5 lakh sum insured, how much is covered for in-patient Ayurvedic treatment?",
               (f"Room rent is paid as per the schedule.\n{AYURVEDA}", "fm.pdf", 4),
               ("The canteen serves lunch at noon. Parking is free.", "other.pdf", 0),
               (AYURVEDA_TABLE, "fm.pdf", 5))
    assert ">3,00,000 to 15,00,000 | 15,000 [3]" in gen.text and gen.cited[:2] == (1, 3)


def test_a_table_of_another_document_is_not_attached() -> None:
    gen = _ask("With a 5 lakh sum insured, how much is covered for in-patient Ayurvedic treatment?",
               (AYURVEDA, "fm.pdf", 4), (AYURVEDA_TABLE, "other.pdf", 5))
    assert "as mentioned in the table below; [1] Sum Insured" not in gen.text


def test_a_small_table_is_quoted_whole_when_no_row_holds_the_asked_quantity() -> None:
    grid = ("| Step target | Discount |\n|---|---|\n| 5001 to 8000 | 2% |\n| 8001 to 10000 | 5% |\n"
            "| Above 10000 | 8% |")
    gen = _ask("What renewal discount do I get for walking every day?",
               (f"We offer a renewal discount for the average step count as per the grid below.\n{grid}",
                "h.pdf", 0))
    assert "5001 to 8000 | 2% … 8001 to 10000 | 5% … Above 10000 | 8%" in gen.text


def test_a_list_cut_by_the_chunk_boundary_continues_in_the_next_chunk() -> None:
    first = ("The office canteen serves lunch at noon.\n"
             "The company shall not make any payment for maternity expenses incurred in connection with or "
             "in respect of:\n"
             "1. Maternity expenses of persons below eighteen years are not covered under the conditions.\n"
             "2. Delivery within a waiting period of 24 months.")
    second = ("The company shall not make any payment for maternity expenses incurred in connection with or "
              "in respect of:\n3. Claims beyond two births over the life of the cover.\n"
              "4. Surrogate mothers.")
    gen = _ask("Does the policy cover maternity expenses, and what are the conditions?",
               (first, "p.pdf", 7), (second, "p.pdf", 8))
    assert "3. Claims beyond two births over the life of the cover." in gen.text
    assert "24 months. [1]" in gen.text and "4. Surrogate mothers. [2]" in gen.text


def test_a_procedure_question_answered_by_a_step_quotes_the_steps_in_order() -> None:
    text = ("6.1 Listing Description Discrepancy\n"
            "- If a rental does not match the listing, guests should contact the host immediately.\n"
            "- Contoso may assist in resolving disputes between hosts and guests about a listing.\n"
            "- Document any issues with photos or messages.")
    gen = _ask("The rental does not match the listing. What should I do?", (text, "t.md", 0))
    assert gen.text.index("contact the host") < gen.text.index("may assist") < gen.text.index("Document any")


def test_a_lead_in_shown_once_is_not_repeated() -> None:
    table = ("| Cover | Limit |\n|---|---|\n| Ambulance per trip | INR 2,000 |\n"
             "| Ambulance per year | INR 5,000 |\n| Canteen | lunch at noon |")
    gen = _ask("What ambulance limits apply per trip and per year?", (table, "p.pdf", 0))
    assert gen.text.count("Cover | Limit") == 1 and "INR 2,000" in gen.text and "INR 5,000" in gen.text


def test_a_comparison_of_values_quotes_each_documents_unit_holding_one() -> None:
    request = GenerationRequest(
        "How much cumulative bonus does each policy add per claim-free year?",
        [scored("The cumulative bonus is credited each claim-free year to the policy.", path="a.pdf"),
         scored("The cumulative bonus is 10% of the sum insured per claim-free year.", path="a.pdf",
                ordinal=3),
         scored("Cumulative bonus rules for the claim-free year apply to this policy as well.", path="b.pdf"),
         scored("Cumulative bonus: 5% per claim-free year, up to 50%.", path="b.pdf", ordinal=9)],
        documents=("a.pdf", "b.pdf"))
    gen = ExtractiveAnswerer(ANSWER, FakeEmbedder()).generate(request)
    assert "10%" in gen.text and "5% per claim-free year" in gen.text


def test_two_documents_with_the_same_wording_are_both_quoted_in_a_comparison() -> None:
    same = "Employees are entitled to 20 days of annual leave per calendar year."
    chunks = [scored(same, 1.0, path="hr-2023.md"), scored(same, 0.9, path="hr-2024.md")]
    gen = ExtractiveAnswerer(ANSWER, FakeEmbedder()).generate(GenerationRequest(
        "Compare the annual leave in the 2023 and the 2024 handbook", chunks,
        documents=("hr-2023.md", "hr-2024.md")))
    assert gen.found and set(gen.cited) >= {1, 2}
