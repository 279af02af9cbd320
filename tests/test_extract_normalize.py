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


BODIES = ["Claims are paid within 15 days of the last document.", "Cover starts on the first day.",
          "Fees are 2% of the premium.", "Renewal is yearly.", "Disputes go to the ombudsman.",
          "Pre-existing diseases wait 36 months.", "Day care is covered."]


def split_header(i: int) -> str:
    """The letterhead as one reader sets it: address, then page number and title."""
    return f"Premises No. 18-0374, Plot no. CBD-81,\nPage {i} of 7 National Parivar Mediclaim Plus Policy"


def joined_header(i: int) -> str:
    """The same letterhead as another reader sets it: title first, address and page number joined."""
    return f"National Parivar Mediclaim Plus Policy\nPremises No. 18-0374, Plot no. CBD-81, Page {i} of 7"


def test_header_set_two_ways_each_on_under_half_the_pages_is_dropped() -> None:
    pages = [(split_header(i) if i % 2 else joined_header(i)) + f"\n{b}" for i, b in enumerate(BODIES, 1)]
    assert normalize_pages(pages, 0.5) == BODIES


def test_body_line_sharing_only_part_of_the_header_words_is_kept() -> None:
    pages = [(split_header(i) if i % 2 else joined_header(i)) + f"\n{b}" for i, b in enumerate(BODIES, 1)]
    pages[2] = split_header(3) + "\nThe National Parivar Mediclaim Plus Policy covers day care."
    assert normalize_pages(pages, 0.5)[2] == "The National Parivar Mediclaim Plus Policy covers day care."
