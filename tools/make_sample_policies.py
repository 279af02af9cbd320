"""Generate the sample DOCX and PDF policies in ``policies/`` (run from the repo root).

    .venv/bin/python tools/make_sample_policies.py

The files are committed; re-run this only to change them. The DOCX is built with python-docx (heading
styles and a table between paragraphs); the PDF with fpdf2 (a dev dependency; a ruled table of
benefits, so the extractor's pdfplumber table path runs on it).
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fpdf import FPDF

ROOT = Path(__file__).resolve().parents[1] / "policies"
FIXED_DATE = dt.datetime(2026, 1, 15, 9, 0, tzinfo=dt.UTC)

TRAVEL_LIMITS = [
    ("Expense", "Limit", "Rules"),
    ("Hotel (United States)", "$220 per night", "Standard room; book through the travel portal"),
    ("Hotel (other countries)", "$180 per night", "Standard room; book through the travel portal"),
    ("Meals (per diem)", "$75 per day", "No receipts needed; half on the first and last day"),
    ("Private car mileage", "$0.67 per mile", "Only when cheaper than a rental car"),
    ("Taxi and ride share", "$60 per day", "Receipts required"),
]

BENEFITS = [
    ("Benefit", "In network", "Out of network"),
    ("Annual deductible", "$500 individual / $1,000 family", "$1,500 individual / $3,000 family"),
    ("Out-of-pocket maximum", "$3,000 individual / $6,000 family", "$9,000 individual"),
    ("Primary care visit", "$25 copay", "40% after deductible"),
    ("Specialist visit", "$40 copay", "40% after deductible"),
    ("Emergency room", "$150 copay (waived if admitted)", "$150 copay"),
    ("Generic prescription drugs", "$10 copay", "Not covered"),
    ("Vision exam", "1 exam every 12 months, $0", "Not covered"),
]


def make_docx(path: Path) -> None:
    """Travel and expenses policy with headings and a limits table."""
    from docx import Document

    doc = Document()
    doc.core_properties.created = FIXED_DATE
    doc.core_properties.modified = FIXED_DATE
    doc.add_heading("Travel and Expenses Policy", level=0)
    doc.add_paragraph("Owner: Finance · Effective: 1 January 2026 · Applies to: all employees")
    doc.add_heading("1. Booking travel", level=1)
    doc.add_paragraph("Book flights and hotels through the company travel portal at least 14 days "
                      "before departure. Trips need your manager's approval before booking.")
    doc.add_heading("Flights", level=2)
    doc.add_paragraph("Fly economy class. Business class is allowed only for flights longer than "
                      "8 hours, with approval from a vice president.")
    doc.add_heading("2. Spending limits", level=1)
    doc.add_paragraph("The following limits apply per person:")
    table = doc.add_table(rows=0, cols=3)
    table.style = "Table Grid"
    for row in TRAVEL_LIMITS:
        cells = table.add_row().cells
        for cell, text in zip(cells, row, strict=True):
            cell.text = text
    doc.add_paragraph("Alcohol, minibar items, fines and upgrades are never reimbursed.")
    doc.add_heading("3. Claiming expenses", level=1)
    doc.add_paragraph("Submit expense claims in the expense system within 30 days after the trip. "
                      "Attach a receipt for every expense above $25. Approved claims are paid with "
                      "the next monthly salary.")
    doc.add_heading("4. Corporate card", level=1)
    doc.add_paragraph("Employees who travel more than four times a year may request a corporate card "
                      "with a monthly limit of $5,000. Personal use of the card is not allowed.")
    doc.save(str(path))


def make_pdf(path: Path) -> None:
    """Two-page group health insurance summary with a ruled table of benefits."""
    from fpdf import FPDF

    pdf = FPDF(format="A4")
    pdf.set_creation_date(FIXED_DATE)
    pdf.set_title("Group Health Insurance - Summary of Benefits")
    pdf.set_auto_page_break(auto=True, margin=20)
    pdf.add_page()
    _title(pdf, "Group Health Insurance - Summary of Benefits")
    _para(pdf, "Plan year 1 January to 31 December 2026. Insurer: Example Mutual Health. This summary "
               "explains the main benefits of the company group health plan; the policy wording "
               "decides in case of doubt.")
    _heading(pdf, "1. Who is covered")
    _para(pdf, "Employees working at least 20 hours per week are covered from their first day of "
               "work. Spouses or domestic partners and children up to age 26 can be added as "
               "dependants. Enrol within 30 days of your hire date or of a qualifying life event "
               "(marriage, birth, adoption); otherwise wait for open enrolment in November.")
    _heading(pdf, "2. Table of benefits")
    with pdf.table(col_widths=(50, 70, 70), text_align="LEFT") as table:
        for row in BENEFITS:
            cells = table.row()
            for text in row:
                cells.cell(text)
    pdf.add_page()
    _heading(pdf, "3. Maternity and newborn care")
    _para(pdf, "Maternity care is covered after a waiting period of 9 months of continuous "
               "membership. Prenatal visits are covered in full in network. A newborn is covered "
               "from birth when added to the plan within 30 days.")
    _heading(pdf, "4. Premiums")
    _para(pdf, "The company pays 80% of the employee premium and 50% of the dependant premium. The "
               "employee share is deducted from each monthly salary. The grace period for a missed "
               "premium payment is 31 days; cover stops if the premium is still unpaid after it.")
    _heading(pdf, "5. Claims")
    _para(pdf, "In-network providers bill the insurer directly. For out-of-network care, submit the "
               "claim form with itemised bills within 90 days of treatment. Claims are paid within "
               "15 working days of receiving complete documents.")
    pdf.output(str(path))


def _title(pdf: FPDF, text: str) -> None:
    pdf.set_font("Helvetica", "B", 16)
    pdf.multi_cell(0, 9, text, new_x="LMARGIN", new_y="NEXT")
    pdf.ln(2)


def _heading(pdf: FPDF, text: str) -> None:
    pdf.ln(3)
    pdf.set_font("Helvetica", "B", 12)
    pdf.multi_cell(0, 7, text, new_x="LMARGIN", new_y="NEXT")
    pdf.set_font("Helvetica", "", 10)


def _para(pdf: FPDF, text: str) -> None:
    pdf.set_font("Helvetica", "", 10)
    pdf.multi_cell(0, 5.5, text, new_x="LMARGIN", new_y="NEXT")
    pdf.ln(1)


def main() -> None:
    """Write policies/hr/travel_and_expenses.docx and policies/insurance/group_health_summary.pdf."""
    (ROOT / "hr").mkdir(parents=True, exist_ok=True)
    (ROOT / "insurance").mkdir(parents=True, exist_ok=True)
    make_docx(ROOT / "hr" / "travel_and_expenses.docx")
    make_pdf(ROOT / "insurance" / "group_health_summary.pdf")
    print(f"wrote sample policies under {ROOT}")


if __name__ == "__main__":
    main()
