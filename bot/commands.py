"""The ``/policy`` slash command: ``/policy <question>`` (answer visible only to the asker), and the
admin subcommands ``/policy status``, ``/policy reindex [file]``, ``/policy cache stats`` and
``/policy cache forget <id>`` (user ids in ``slack.admins``).

Replies are ephemeral (``chat.postEphemeral``). Status and reindex are callables supplied by the
composition root, so the bot never imports the indexer.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from bot.errors import failure_text, new_error_id, reason
from bot.inbound import decode
from bot.questions import Question
from bot.render import render_notice
from bot.responder import Responder
from core.cache import AnswerCache
from core.cache.jobs import stats_json, stats_text
from core.config import Settings

log = logging.getLogger(__name__)

HELP = ("Usage: `/policy <question>` answers privately. Admins: `/policy status`, "
        "`/policy reindex [file]`, `/policy cache stats`, `/policy cache forget <id>`.")
CACHE_USAGE = "Usage: `/policy cache stats` or `/policy cache forget <id>`."
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
    cache: AnswerCache | None = None

    def __call__(self, text: str, user: str, channel: str) -> None:
        sub, _, arg = text.strip().partition(" ")
        q = Question(channel=channel, ts="", thread_ts="", user=user, text=decode(text),
                     is_dm=channel.startswith("D"))
        if sub.lower() in {"", "help"}:
            self._say(q, HELP)
        elif sub.lower() in {"status", "reindex", "cache"}:
            self._admin(q, sub.lower(), arg.strip() or None)
        elif self.allowed(q):
            self._ask(q)

    def _ask(self, q: Question) -> None:
        try:
            self.responder.ask_ephemeral(q)
        except Exception as exc:  # never silent: the asker sees the reason and an error id
            error_id = new_error_id()
            log.error("/policy question failed [error id %s]: %s", error_id, reason(exc), exc_info=exc)
            self._say(q, failure_text(reason(exc), error_id))

    def _admin(self, q: Question, sub: str, arg: str | None) -> None:
        if q.user not in self.settings.slack.admins:
            log.info("non-admin %s tried /policy %s", q.user, sub)
            self._say(q, ADMIN_ONLY.format(sub=sub))
            return
        fn: Callable[[], str] | None = self.status
        if sub == "reindex":
            reindex = self.reindex
            fn = (lambda: reindex(arg)) if reindex is not None else None
        elif sub == "cache":
            cache = self.cache
            fn = (lambda: cache_command(cache, arg or "")) if cache is not None else None
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


def cache_command(cache: AnswerCache, arg: str) -> str:
    """``stats`` → the cache's entries and counters; ``forget <id>`` → stop serving that entry."""
    sub, _, entry_id = arg.strip().partition(" ")
    if sub == "stats":
        return stats_text(stats_json(cache.stats()))
    if sub == "forget" and entry_id.strip():
        entry_id = entry_id.strip()
        if cache.forget(entry_id):
            return f"Cache entry {entry_id} forgotten: it will not be served again."
        return f"No live cache entry {entry_id} (see `/policy cache stats`)."
    return CACHE_USAGE
