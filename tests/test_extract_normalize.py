"""Header/footer filter of indexer.extract.normalize (repeated lines at page edges)."""

from __future__ import annotations

from indexer.extract.normalize import normalize_pages

FOOTER = ["Premises No. 18-0374, Plot no. CBD-81,", "Page {i} of 5 National Mediclaim Policy",
          "UIN: NIC25039"]


def test_footer_parts_run_together_on_one_line_are_dropped() -> None:
    bodies = ["Claims are paid in 15 days.", "Cover starts on day one.", "Fees are 2%.", "Renewal.", "End."]
    pages = [f"{b}\n" + "\n".join(part.format(i=i) for part in FOOTER) for i, b in enumerate(bodies, 1)]
    pages[1] = f"{bodies[1]}\n" + " ".join(part.format(i=2) for part in FOOTER)
    assert normalize_pages(pages, 0.5) == bodies


def test_edge_line_with_body_text_and_a_footer_part_is_kept() -> None:
    bodies = ["Claims are paid in 15 days.", "Cover starts on day one.", "Fees are 2%.", "Renewal.", "End."]
    pages = [f"{b}\n" + "\n".join(part.format(i=i) for part in FOOTER) for i, b in enumerate(bodies, 1)]
    pages[2] = "Fees are 2% UIN: NIC25039\n" + "\n".join(part.format(i=3) for part in FOOTER[:2])
    assert normalize_pages(pages, 0.5)[2] == "Fees are 2% UIN: NIC25039"
