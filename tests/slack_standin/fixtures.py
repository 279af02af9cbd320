"""Load the shared Slack fixtures (``../shared/slack-fixtures`` relative to the repo root)."""

from __future__ import annotations

import copy
import itertools
import json
from pathlib import Path
from typing import Any

FIXTURES = Path(__file__).resolve().parents[2].parent / "shared" / "slack-fixtures"
_EVENT_IDS = itertools.count(1000)


def load_fixture(relpath: str) -> dict[str, Any]:
    """The JSON of ``FIXTURES/relpath`` (e.g. ``"events/app_mention.json"``), a fresh copy each call."""
    data: dict[str, Any] = json.loads((FIXTURES / relpath).read_text(encoding="utf-8"))
    return copy.deepcopy(data)


def event_body(name: str, *, event_id: str | None = None, **event_fields: Any) -> dict[str, Any]:
    """An Events API body from ``events/<name>.json`` with inner ``event`` fields overridden.

    ``event_id`` defaults to a fresh unique id so separate calls are separate deliveries; pass the
    same id to model Slack's retries. A field set to ``None`` is removed from the event.
    """
    body = load_fixture(f"events/{name}.json")
    body["event_id"] = event_id or f"Ev{next(_EVENT_IDS):08d}"
    for key, value in event_fields.items():
        if value is None:
            body["event"].pop(key, None)
        else:
            body["event"][key] = value
    return body
