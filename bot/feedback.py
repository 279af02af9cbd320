"""Votes on answers — reactions and feedback buttons are one vote — the 👎 reason, and deleted answers.

- A reaction (``slack.reactions`` maps emoji to up/down) or a click on the answer's feedback buttons
  sets the user's one vote on that answer; the latest wins. Clicking the button of the vote the user
  already has undoes it (the buttons toggle); removing the reaction of the current vote undoes it too.
  All go through :meth:`core.answer_log.AnswerLog.set_vote`, so the verified-answer cache follows.
- A 👎 click opens a modal with one optional line, "What was wrong?"; its text is stored with the vote
  (:meth:`~core.answer_log.AnswerLog.set_reason`).
- A deleted answer message removes the answer's votes and its log entry, and its verified-answer cache
  entry stops being served (:meth:`core.cache.AnswerCache.forget`); later reactions on it are no votes.

Modal: https://docs.slack.dev/surfaces/modals (``views.open`` within 3 s of the click, with its
``trigger_id``); plain-text input: https://docs.slack.dev/reference/block-kit/block-elements/plain-text-input-element.
"""

from __future__ import annotations

import json
import logging
from dataclasses import dataclass
from typing import Any

from slack_sdk import WebClient

from bot.render import FEEDBACK_VALUES
from core.answer_log import AnswerLog, Vote
from core.cache import AnswerCache
from core.config import Settings

log = logging.getLogger(__name__)

REACTION_ALIASES = {"thumbsup": "+1", "thumbsdown": "-1"}
REASON_CALLBACK = "feedback_reason"
REASON_BLOCK, REASON_ACTION = "reason", "reason_input"
MAX_REASON_CHARS = 300


@dataclass
class Feedback:
    """Votes, reasons and answer deletions; collaborators built once by :func:`bot.app.build_app`."""

    settings: Settings
    answer_log: AnswerLog
    cache: AnswerCache | None = None

    def reaction(self, event: dict[str, Any], added: bool, bot_user_id: str | None) -> None:
        """A reaction on one of the bot's answers: set the vote (a removal undoes its own vote)."""
        item = event.get("item") or {}
        name = str(event.get("reaction", "")).split("::")[0]
        vote = self.settings.slack.reactions.get(REACTION_ALIASES.get(name, name))
        user = str(event.get("user", ""))
        if vote is None or item.get("type") != "message" or user == bot_user_id:
            return
        rec = self.answer_log.find_by_message(str(item.get("channel")), str(item.get("ts")))
        if rec is None:
            return
        if added:
            self.answer_log.set_vote(rec.answer_id, user, vote)
        elif self.answer_log.votes(rec.answer_id).get(user) == vote:
            self.answer_log.set_vote(rec.answer_id, user, None)

    def click(self, channel: str, message_ts: str, user: str, value: str) -> Vote | None:
        """A feedback button: the new vote (None: undone, or not an answer)."""
        vote: Vote | None = FEEDBACK_VALUES.get(value)  # type: ignore[assignment]
        rec = self.answer_log.find_by_message(channel, message_ts)
        if vote is None or rec is None:
            return None
        if self.answer_log.votes(rec.answer_id).get(user) == vote:
            vote = None  # the second click on the same button undoes the vote
        self.answer_log.set_vote(rec.answer_id, user, vote)
        return vote

    def reason_wanted(self, channel: str, message_ts: str, user: str, value: str) -> str | None:
        """The answer id to ask "what was wrong?" about when this click makes a 👎, else None."""
        if FEEDBACK_VALUES.get(value) != "down":
            return None
        rec = self.answer_log.find_by_message(channel, message_ts)
        if rec is None or self.answer_log.votes(rec.answer_id).get(user) == "down":
            return None
        return rec.answer_id

    @staticmethod
    def open_reason(client: WebClient, trigger_id: str, answer_id: str) -> None:
        """Open the optional one-line "What was wrong?" modal."""
        client.views_open(trigger_id=trigger_id, view=reason_view(answer_id))

    def reason_submitted(self, view: dict[str, Any], user: str) -> bool:
        """Store the submitted reason with ``user``'s vote; False when empty or there is no vote."""
        answer_id = str(json.loads(view.get("private_metadata") or "{}").get("answer_id") or "")
        values = (view.get("state") or {}).get("values") or {}
        text = str((values.get(REASON_BLOCK) or {}).get(REASON_ACTION, {}).get("value") or "").strip()
        if not answer_id or not text:
            return False
        return self.answer_log.set_reason(answer_id, user, " ".join(text.split())[:MAX_REASON_CHARS])

    def message_deleted(self, channel: str, ts: str) -> None:
        """A message was deleted: if it was (part of) an answer, forget the answer, its votes and
        its verified-answer entry; a stored thread message is forgotten either way."""
        self.answer_log.messages.delete(channel, ts)
        rec = self.answer_log.find_by_message(channel, ts)
        if rec is None:
            return
        self.answer_log.delete(rec.answer_id)
        if self.cache is not None and not rec.cached and self.cache.forget(rec.answer_id):
            log.info("verified answer %s forgotten: its message was deleted", rec.answer_id)


def reason_view(answer_id: str) -> dict[str, Any]:
    """The modal asking for the 👎 reason (one optional line)."""
    return {
        "type": "modal", "callback_id": REASON_CALLBACK,
        "private_metadata": json.dumps({"answer_id": answer_id}),
        "title": {"type": "plain_text", "text": "Feedback"},
        "submit": {"type": "plain_text", "text": "Send"},
        "close": {"type": "plain_text", "text": "Skip"},
        "blocks": [{
            "type": "input", "block_id": REASON_BLOCK, "optional": True,
            "label": {"type": "plain_text", "text": "What was wrong? (optional)"},
            "element": {"type": "plain_text_input", "action_id": REASON_ACTION, "multiline": False,
                        "max_length": MAX_REASON_CHARS,
                        "placeholder": {"type": "plain_text", "text": "e.g. wrong number, outdated policy"}},
        }],
    }
