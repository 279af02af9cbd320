"""Block Kit, view and stream-chunk validation of the stand-in — Slack's documented rules, so a
payload real Slack would refuse with ``invalid_blocks`` / ``invalid_arguments`` is refused here too.

Sources: https://docs.slack.dev/reference/block-kit/blocks (≤ 50 blocks per message, ≤ 100 per view),
section-block (text ≤ 3,000 characters), context-actions-block (1–5 feedback_buttons / icon_button
elements), feedback-buttons-element (plain_text button text ≤ 75 characters, value ≤ 2,000), the
modal view (title plain_text ≤ 24 characters), and chat.startStream's chunk types
(markdown_text, task_update with status pending / in_progress / complete / error, plan_update, blocks).
"""

from __future__ import annotations

from typing import Any

from tests.slack_standin.common import MAX_BLOCKS, MAX_SECTION_TEXT, ApiError

MAX_VIEW_BLOCKS = 100
TASK_STATUSES = {"pending", "in_progress", "complete", "error"}
SIMPLE_TYPES = {"divider", "rich_text", "markdown", "header", "actions", "input", "image"}


def _bad(path: str, what: str) -> ApiError:
    return ApiError("invalid_blocks", errors=[f"{what} [json-pointer:{path}]"])


def check_blocks(blocks: Any, max_blocks: int = MAX_BLOCKS) -> None:
    """Raise ``invalid_blocks`` unless ``blocks`` is a list of ≤ ``max_blocks`` valid blocks."""
    if not isinstance(blocks, list):
        raise ApiError("invalid_blocks", errors=["blocks must be an array"])
    if len(blocks) > max_blocks:
        raise _bad("/blocks", f"no more than {max_blocks} items allowed")
    for i, b in enumerate(blocks):
        _check_block(f"/blocks/{i}", b)


def _check_block(path: str, b: Any) -> None:
    if not isinstance(b, dict) or not b.get("type"):
        raise _bad(path, "missing type")
    if len(str(b.get("block_id", ""))) > 255:
        raise _bad(path + "/block_id", "must be at most 255 characters")
    kind = b["type"]
    if kind == "section":
        text = (b.get("text") or {}).get("text", "")
        if not 0 < len(text) <= MAX_SECTION_TEXT:
            raise _bad(path + "/text/text", f"must be 1-{MAX_SECTION_TEXT} characters")
    elif kind == "context":
        els = b.get("elements") or []
        if not 0 < len(els) <= 10 or any(not (e.get("text") or e.get("image_url")) for e in els):
            raise _bad(path + "/elements", "bad elements")
    elif kind == "context_actions":
        _check_context_actions(path, b)
    elif kind not in SIMPLE_TYPES:
        raise _bad(path + "/type", "unknown block type")


def _check_context_actions(path: str, b: dict[str, Any]) -> None:
    els = b.get("elements") or []
    if not 0 < len(els) <= 5:
        raise _bad(path + "/elements", "must hold 1-5 elements")
    for j, e in enumerate(els):
        where = f"{path}/elements/{j}"
        if e.get("type") == "icon_button":
            continue
        if e.get("type") != "feedback_buttons":
            raise _bad(where + "/type", "must be feedback_buttons or icon_button")
        for side in ("positive_button", "negative_button"):
            button = e.get(side) or {}
            text = button.get("text") or {}
            if text.get("type") != "plain_text" or not 0 < len(text.get("text", "")) <= 75:
                raise _bad(f"{where}/{side}/text", "must be plain_text of 1-75 characters")
            if not 0 < len(str(button.get("value", ""))) <= 2000:
                raise _bad(f"{where}/{side}/value", "must be 1-2000 characters")


def check_view(view: Any, kind: str) -> None:
    """Raise ``invalid_arguments`` unless ``view`` is a valid ``kind`` (``modal``/``home``) view."""
    if not isinstance(view, dict) or view.get("type") != kind:
        raise ApiError("invalid_arguments", errors=[f"view.type must be {kind}"])
    if kind == "modal":
        title = view.get("title") or {}
        if title.get("type") != "plain_text" or not 0 < len(title.get("text", "")) <= 24:
            raise ApiError("invalid_arguments", errors=["view.title must be plain_text of 1-24 characters"])
    if len(str(view.get("private_metadata", ""))) > 3000:
        raise ApiError("invalid_arguments", errors=["view.private_metadata is over 3000 characters"])
    check_blocks(view.get("blocks") or [], MAX_VIEW_BLOCKS)


def check_chunks(chunks: Any) -> list[dict[str, Any]]:
    """The chunks of a stream call, or ``invalid_arguments`` naming the first bad one."""
    if not isinstance(chunks, list) or not chunks:
        raise ApiError("invalid_arguments", errors=["chunks must be a non-empty array"])
    for i, c in enumerate(chunks):
        kind = c.get("type") if isinstance(c, dict) else None
        ok = ((kind == "markdown_text" and c.get("text"))
              or (kind == "task_update" and c.get("id") and c.get("title")
                  and c.get("status") in TASK_STATUSES)
              or (kind == "plan_update" and c.get("title"))
              or (kind == "blocks" and isinstance(c.get("blocks"), list)))
        if not ok:
            raise ApiError("invalid_arguments", errors=[f"invalid chunk [json-pointer:/chunks/{i}]"])
    return list(chunks)
