"""The ``/policy`` slash command: ``/policy <question>`` (answer visible only to the asker), and the
admin subcommands ``/policy status`` and ``/policy reindex [file]`` (user ids in ``slack.admins``).

Replies are ephemeral (``chat.postEphemeral``). Status and reindex are callables supplied by the
composition root, so the bot never imports the indexer.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from bot.questions import Question
from bot.render import render_notice
from bot.responder import Responder
from core.config import Settings

log = logging.getLogger(__name__)

HELP = ("Usage: `/policy <question>` answers privately. Admins: `/policy status`, "
        "`/policy reindex [file]`.")
ADMIN_ONLY = "Only policybot admins can run `/policy {sub}` (see `slack.admins` in config.yaml)."


@dataclass
class Commands:
    """Handles one ``/policy`` invocation: ``commands(text, user_id, channel_id)``.

    ``allowed(question)`` applies the rate limits (and tells the user when over).
    """

    settings: Settings
    responder: Responder
    allowed: Callable[[Question], bool]
    status: Callable[[], str] | None = None
    reindex: Callable[[str | None], str] | None = None

    def __call__(self, text: str, user: str, channel: str) -> None:
        sub, _, arg = text.strip().partition(" ")
        q = Question(channel=channel, ts="", thread_ts="", user=user, text=text.strip(),
                     is_dm=channel.startswith("D"))
        if sub.lower() in {"", "help"}:
            self._say(q, HELP)
        elif sub.lower() in {"status", "reindex"}:
            self._admin(q, sub.lower(), arg.strip() or None)
        elif self.allowed(q):
            self.responder.ask_ephemeral(q)

    def _admin(self, q: Question, sub: str, arg: str | None) -> None:
        if q.user not in self.settings.slack.admins:
            log.info("non-admin %s tried /policy %s", q.user, sub)
            self._say(q, ADMIN_ONLY.format(sub=sub))
            return
        fn: Callable[[], str] | None = self.status
        if sub == "reindex":
            reindex = self.reindex
            fn = (lambda: reindex(arg)) if reindex is not None else None
        if fn is None:
            self._say(q, f"`/policy {sub}` is not available in this process.")
            return
        try:
            self._say(q, fn())
        except Exception as exc:  # an admin sees the failure instead of silence
            log.exception("/policy %s failed", sub)
            self._say(q, f"`/policy {sub}` failed: {exc}")

    def _say(self, q: Question, text: str) -> None:
        msg = render_notice(text)
        self.responder.client.chat_postEphemeral(channel=q.channel, user=q.user, text=msg.text,
                                                 blocks=msg.blocks)
