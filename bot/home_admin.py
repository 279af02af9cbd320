"""The admins' section of the App Home tab — a pure rendering function, no I/O.

:func:`admin_home_blocks` turns the index status (``policybot.status.collect``'s dict) and the latest
knowledge-gap report (:func:`core.gaps.jobs.load_latest`) into Block Kit blocks: documents indexed,
failed (with reasons) and needing OCR (with pages), then the report's groups, largest first. Lists are
capped (:data:`MAX_LISTED` files, :data:`MAX_GROUPS` groups) with a count of the rest, so the view stays
within the Home tab's 100 blocks (https://docs.slack.dev/reference/views/home-tab-view). Everything
from files and questions is escaped.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from bot.gaps import group_text
from bot.render import Block, escape
from core.gaps.render import day
from core.gaps.report import GapReport

MAX_LISTED = 10
MAX_GROUPS = 10


def admin_home_blocks(status: dict[str, Any], report: GapReport | None) -> list[Block]:
    """Blocks of the admin section: index status, then the latest gap report (or why there is none)."""
    return [_header("Admin: index status"), *index_blocks(status), {"type": "divider"},
            _header("Admin: knowledge gaps"), *report_blocks(report)]


def admin_section(admins: Collection[str], status: Callable[[], dict[str, Any]],
                  latest: Callable[[], GapReport | None]) -> Callable[[str], list[Block]]:
    """A Home-tab section ``section(user_id) -> blocks``: a divider and :func:`admin_home_blocks` for
    users in ``admins`` (``slack.admins``), nothing for everyone else. ``status`` and ``latest`` are
    read when an admin opens the tab (``policybot.status.collect``, :func:`core.gaps.jobs.load_latest`)."""
    allowed = frozenset(admins)

    def section(user: str) -> list[Block]:
        if user not in allowed:
            return []
        return [{"type": "divider"}, *admin_home_blocks(status(), latest())]

    return section


def index_blocks(status: dict[str, Any]) -> list[Block]:
    """Counts, removals held back (why and what to do), then the failed files with their reasons and
    the files needing OCR with their pages."""
    docs = status.get("documents") or {}
    head = (f"*{docs.get('indexed', 0)}* documents indexed · *{docs.get('failed', 0)}* failed · "
            f"*{docs.get('needs_ocr', 0)}* need OCR · {status.get('chunks', 0)} chunks")
    last = (status.get("last_reconcile") or {}).get("at")
    if last:
        head += f" · last reconcile {day(float(last))}"
    blocks = [_section(head)]
    held = status.get("held_removals")
    if held:  # indexer.removal_guard: a reconcile kept documents whose files are gone
        blocks.append(_section(f"*Removals held* ({held.get('count', 0)} of {held.get('indexed', 0)} "
                               f"documents kept)\n{escape(str(held.get('reason') or ''))}"[:3000]))
    failed = [f"• `{escape(f['path'])}`: {escape(str(f.get('reason') or 'unknown reason'))}"
              for f in status.get("failures") or []]
    if failed:
        blocks.append(_section("*Failed*\n" + _capped(failed)))
    ocr = status.get("needs_ocr") or {}
    pages = ocr.get("pages") or {}
    needs = [f"• `{escape(p)}`" + (f" (pages {', '.join(map(str, pages[p]))})" if pages.get(p) else "")
             for p in ocr.get("files") or []]
    if needs:
        blocks.append(_section("*Needing OCR*\n" + _capped(needs)))
    return blocks


def report_blocks(report: GapReport | None) -> list[Block]:
    """The latest report: window and counts, then up to :data:`MAX_GROUPS` groups."""
    if report is None:
        return [_section("No gap report yet: the weekly job writes one, or run `policybot gaps`.")]
    head = (f"{day(report.since)} – {day(report.until)}: {report.questions} questions, "
            f"{report.flagged} flagged, {len(report.groups)} groups (generated {day(report.generated_at)})")
    blocks = [_section(head)]
    if not report.groups:
        blocks.append(_section("Nothing to report: every question was answered without a signal."))
    blocks += [_section(group_text(g)) for g in report.groups[:MAX_GROUPS]]
    if len(report.groups) > MAX_GROUPS:
        more = len(report.groups) - MAX_GROUPS
        blocks.append({"type": "context", "elements": [{"type": "mrkdwn", "text": (
            f"{more} more groups: run `policybot gaps` for the full report.")}]})
    return blocks


def _capped(lines: list[str]) -> str:
    shown = lines[:MAX_LISTED]
    if len(lines) > MAX_LISTED:
        shown.append(f"… and {len(lines) - MAX_LISTED} more")
    return "\n".join(shown)[:3000]


def _header(text: str) -> Block:
    return {"type": "header", "text": {"type": "plain_text", "text": text}}


def _section(text: str) -> Block:
    return {"type": "section", "text": {"type": "mrkdwn", "text": text}}
