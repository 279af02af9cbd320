"""The admins' App Home section (bot.home_admin): a pure function of the status dict and the latest
gap report, checked against Slack's block rules (the local Slack's validator)."""

from __future__ import annotations

from typing import Any

from bot.home_admin import MAX_GROUPS, MAX_LISTED, admin_home_blocks, admin_section
from core.gaps import GapGroup, GapReport
from core.gaps.report import DocRef
from tests.slack_standin.methods import check_blocks


def status(failed: int = 1, ocr: int = 1) -> dict[str, Any]:
    return {"chunks": 151, "last_reconcile": {"at": 1_780_000_000.0},
            "documents": {"indexed": 5, "failed": failed, "needs_ocr": ocr},
            "failures": [{"path": f"hr/broken{i}.pdf", "reason": "encrypted PDF <needs a password>",
                          "at": 0.0} for i in range(failed)],
            "needs_ocr": {"files": [f"hr/scan{i}.pdf" for i in range(ocr)],
                          "pages": {f"hr/scan{i}.pdf": [2, 3] for i in range(ocr)}, "source": "x"}}


def report(groups: int = 2) -> GapReport:
    g = GapGroup(count=3, examples=("Can I work from abroad?", "Working overseas allowed?"),
                 signals={"declined": 3}, reasons=("not answered",),
                 documents=(DocRef("hr/handbook.md", "Remote work", None, 0.52),), cited=(),
                 owners=("U0HRLEAD01",), first_asked_at=1_780_000_000.0, last_asked_at=1_780_100_000.0)
    return GapReport(1_780_200_000.0, 1_779_600_000.0, 1_780_200_000.0, 60, 3 * groups, 0.45, (g,) * groups)


def texts(blocks: list[dict[str, Any]]) -> str:
    return "\n".join(b.get("text", {}).get("text", "") or b.get("elements", [{}])[0].get("text", "")
                     for b in blocks)


def test_index_status_counts_failures_with_reasons_and_ocr_pages() -> None:
    blocks = admin_home_blocks(status(), report())
    check_blocks(blocks)
    out = texts(blocks)
    assert "*5* documents indexed · *1* failed · *1* need OCR" in out
    assert "`hr/broken0.pdf`: encrypted PDF &lt;needs a password&gt;" in out
    assert "`hr/scan0.pdf` (pages 2, 3)" in out


def test_held_removals_are_shown_with_the_reason() -> None:
    held = {"count": 5, "indexed": 6, "files": ["hr/a.md"], "root": "/srv/policies", "at": 0.0,
            "reason": "a reconcile of /srv/policies would remove 5 of 6 <documents>; run policybot index "
                      "--allow-removals"}
    blocks = admin_home_blocks({**status(), "held_removals": held}, report())
    check_blocks(blocks)
    out = texts(blocks)
    assert "*Removals held* (5 of 6 documents kept)" in out and "--allow-removals" in out
    assert "&lt;documents&gt;" in out
    assert "Removals held" not in texts(admin_home_blocks({**status(), "held_removals": None}, report()))


def test_latest_report_groups_are_shown_with_examples_and_documents() -> None:
    out = texts(admin_home_blocks(status(), report()))
    assert "60 questions, 6 flagged, 2 groups" in out
    assert "> Can I work from abroad?" in out and "hr/handbook.md — Remote work (0.52)" in out
    assert "3 declined" in out


def test_no_report_yet_says_how_to_get_one() -> None:
    out = texts(admin_home_blocks(status(0, 0), None))
    assert "No gap report yet" in out and "policybot gaps" in out
    assert "Failed" not in out and "Needing OCR" not in out


def test_long_lists_are_capped_within_the_home_tab_limit() -> None:
    blocks = admin_home_blocks(status(failed=40, ocr=40), report(groups=30))
    check_blocks(blocks)
    assert len(blocks) <= 100
    out = texts(blocks)
    assert f"… and {40 - MAX_LISTED} more" in out and f"{30 - MAX_GROUPS} more groups" in out


def test_an_empty_report_says_nothing_to_report() -> None:
    empty = GapReport(1.0, 0.0, 1.0, 12, 0, 0.45, ())
    assert "Nothing to report" in texts(admin_home_blocks(status(), empty))


def test_the_home_section_shows_admins_only() -> None:
    section = admin_section(("U0ADMIN001",), status, lambda: report())
    assert section("U0SOMEONE1") == []
    blocks = section("U0ADMIN001")
    check_blocks(blocks)
    assert blocks[0] == {"type": "divider"} and "Admin: knowledge gaps" in str(blocks)
