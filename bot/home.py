"""The App Home: a short welcome when someone opens a DM with the bot, and the Home tab.

Agent messaging (https://docs.slack.dev/ai/migrating-to-agent-messaging): a DM opened fires
``app_home_opened`` with ``tab: "messages"``. The bot then sets up to four suggested prompts — questions
about documents in the user's default scope (:func:`core.topics.suggested_questions`) — with
``assistant.threads.setSuggestedPrompts`` *without* ``thread_ts`` (agent apps; with it the call
silently fails), and posts a short welcome once per user per :data:`WELCOME_EVERY_S` (a claim in the
shared store, so replicas and restarts do not repeat it).

``tab: "home"`` publishes the Home tab (``views.publish``): the welcome, the suggested questions, then
the blocks of each *home section* — callables ``section(user_id) -> list[block]`` given to
:func:`bot.app.build_app` (``home_sections``); a section returns ``[]`` for users who should not see
it (e.g. non-admins), which is where an admin report plugs in.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from bot.render import Block, escape
from core.claims import Claims
from core.config import Settings
from core.topics import Suggestion

log = logging.getLogger(__name__)

Topics = Callable[[Sequence[str]], list[Suggestion]]
"""``topics(scope) -> suggestions`` (the composition root passes :func:`core.topics.suggested_questions`
bound to its store)."""
HomeSection = Callable[[str], list[Block]]
"""``section(user_id) -> blocks`` appended to the Home tab (``[]`` to show nothing to that user)."""
MAX_PROMPTS = 4
WELCOME_EVERY_S = 90 * 86400.0
TOPICS_TTL_S = 600.0
WELCOME = ("Hi! I answer questions about the company policies and quote the policy files I used. "
           "Ask me anything in this chat; I reply in a thread.")
PROMPTS_TITLE = "Try asking"


@dataclass
class Home:
    """``app_home_opened`` for both tabs. ``welcomed`` holds the once-per-user welcome claims."""

    settings: Settings
    welcomed: Claims
    topics: Topics | None = None
    sections: Sequence[HomeSection] = ()
    _cache: tuple[float, list[Suggestion]] | None = field(default=None, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def opened(self, client: WebClient, event: dict[str, Any]) -> None:
        """Handle one ``app_home_opened`` event (``messages`` → welcome, ``home`` → Home tab)."""
        user = str(event.get("user") or "")
        if event.get("tab") == "messages" and event.get("channel"):
            self.welcome(client, str(event["channel"]), user)
        elif event.get("tab") == "home" and user:
            client.views_publish(user_id=user, view=self.home_view(user))

    def welcome(self, client: WebClient, channel: str, user: str) -> None:
        """Suggested prompts for the DM (every time) and the welcome message (once per period)."""
        prompts = [{"title": s.title, "message": s.question} for s in self.suggestions()]
        if prompts:
            try:
                client.assistant_threads_setSuggestedPrompts(channel_id=channel, prompts=prompts,
                                                             title=PROMPTS_TITLE)
            except SlackApiError as exc:
                log.info("suggested prompts refused (%s)", exc.response.get("error"))
        if self.welcomed.claim(f"welcome:{user}"):
            text = WELCOME + "".join(f"\n• {p['message']}" for p in prompts)
            client.chat_postMessage(channel=channel, text=text, blocks=[_section(escape(text))])

    def suggestions(self) -> list[Suggestion]:
        """Up to :data:`MAX_PROMPTS` suggestions for ``slack.default_scope`` (cached for 10 minutes;
        ``[]`` without a topics source or when the index cannot be read)."""
        if self.topics is None:
            return []
        with self._lock:
            if self._cache is not None and time.monotonic() - self._cache[0] < TOPICS_TTL_S:
                return self._cache[1]
        try:
            found = self.topics(self.settings.slack.default_scope)[:MAX_PROMPTS]
        except Exception:
            log.exception("suggested prompts unavailable (index unreadable)")
            return []
        with self._lock:
            self._cache = (time.monotonic(), found)
        return found

    def home_view(self, user: str) -> dict[str, Any]:
        """The Home tab for ``user``: welcome, suggested questions, then every home section."""
        blocks: list[Block] = [{"type": "header", "text": {"type": "plain_text", "text": "policybot"}},
                               _section(escape(WELCOME))]
        suggestions = self.suggestions()
        if suggestions:
            lines = "\n".join(f"• {escape(s.question)}" for s in suggestions)
            blocks.append(_section(f"*{PROMPTS_TITLE}*\n{lines}"))
        for section in self.sections:
            try:
                blocks += section(user)
            except Exception:
                log.exception("home section %s failed", getattr(section, "__name__", section))
        return {"type": "home", "blocks": blocks[:100]}


def _section(text: str) -> Block:
    return {"type": "section", "text": {"type": "mrkdwn", "text": text[:3000]}}
