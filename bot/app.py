"""Build the slack-bolt app from its collaborators (no globals; the composition root builds them once).

``build_app(settings, secrets, service, answer_log, blobs=..., ...)`` returns a bolt
:class:`~slack_bolt.App` whose middleware deduplicates and gates questions and serves only members of
the installing organisation, on every surface (:mod:`bot.middleware`, :mod:`bot.membership`), and
whose listeners ack at once and answer in the background, always with exactly one reply
(:mod:`bot.boundary`). The Web API base URL comes from ``slack.api_base_url`` so the whole process can
run against a local Slack; outgoing 429s are retried by slack_sdk's ``RateLimitErrorRetryHandler`` (it
honours ``Retry-After``), except ``conversations.replies``, which is only a best-effort top-up.
Bolt's built-in "ignore the bot's own events" middleware is off: the deletion of the bot's own answer
must reach the bot (:func:`bot.questions.classify_message` ignores its own messages instead).
"""

from __future__ import annotations

import logging
import os
import secrets as pysecrets
import socket
from collections.abc import Callable, Sequence
from typing import Any

from slack_bolt import App
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError
from slack_sdk.http_retry.builtin_handlers import RateLimitErrorRetryHandler
from slack_sdk.http_retry.handler import RetryHandler
from slack_sdk.http_retry.request import HttpRequest
from slack_sdk.http_retry.response import HttpResponse
from slack_sdk.http_retry.state import RetryState

from bot.boundary import Replies
from bot.commands import Commands
from bot.feedback import Feedback
from bot.guards import Dedupe, RateLimiter
from bot.history import History
from bot.home import WELCOME_EVERY_S, Home, HomeSection, Topics
from bot.listeners import Bot, register
from bot.membership import Members, lookup_client
from bot.middleware import SLOW_DOWN, Gate, RecentThreads
from bot.questions import Question
from bot.responder import Responder
from bot.work import BackgroundWork
from core.answer_log import AnswerLog, VoteHook
from core.blobs import BlobStore
from core.cache import AnswerCache
from core.cache.service import cache_vote_hook
from core.claims import Claims
from core.config import Secrets, Settings
from core.errors import ConfigError
from core.service import AnswerService

log = logging.getLogger(__name__)

RATE_LIMIT_RETRIES = 3


class _CountingHandler(RetryHandler):
    """First of the client's retry handlers: reports every 429, 5xx and connection failure to
    ``on_error`` and never retries itself (the next handler decides)."""

    def __init__(self, on_error: ApiErrorHook) -> None:
        super().__init__(max_retry_count=1 << 30)  # consulted on every attempt
        self._on_error = on_error

    def _can_retry(self, *, state: RetryState, request: HttpRequest, response: HttpResponse | None = None,
                   error: Exception | None = None) -> bool:
        status = response.status_code if response is not None else 0
        if response is None:
            self._on_error("connection")
        elif status >= 400:  # (handlers also see every 200 OK)
            kind = "ratelimited" if status == 429 else "server_error" if status >= 500 else "http_error"
            self._on_error(kind)
        return False


class _MeteredClient(WebClient):
    """A WebClient that reports Slack's ``ok: false`` errors (``SlackApiError``) to ``on_error``."""

    on_error: ApiErrorHook

    def api_call(self, *args: Any, **kwargs: Any) -> Any:
        try:
            return super().api_call(*args, **kwargs)
        except SlackApiError as exc:
            status = getattr(exc.response, "status_code", 200)
            if status < 400:  # HTTP errors were counted by the retry handler
                self.on_error(str(exc.response.get("error") or "unknown"))
            raise


ApiErrorHook = Callable[[str], None]
"""``on_error(error)``: a Slack error code (``channel_not_found``), ``ratelimited`` (429),
``server_error`` (5xx), ``http_error`` or ``connection``."""


def make_client(settings: Settings, secrets: Secrets, *, retry_rate_limits: bool = True,
                on_error: ApiErrorHook | None = None) -> WebClient:
    """A WebClient for ``slack.api_base_url`` with the bot token, retrying 429s (``Retry-After``)
    unless ``retry_rate_limits`` is False; ``on_error`` hears about every failed call (metrics).

    Raises:
        ConfigError: ``SLACK_BOT_TOKEN`` is not set.
    """
    if not secrets.slack_bot_token:
        raise ConfigError("SLACK_BOT_TOKEN is not set; export the bot token (xoxb-...) to connect to Slack")
    client: WebClient
    if on_error is None:
        client = WebClient(token=secrets.slack_bot_token, base_url=settings.slack.api_base_url)
    else:
        client = _MeteredClient(token=secrets.slack_bot_token, base_url=settings.slack.api_base_url)
        client.on_error = on_error
        client.retry_handlers.insert(0, _CountingHandler(on_error))
    if retry_rate_limits:
        client.retry_handlers.append(RateLimitErrorRetryHandler(max_retry_count=RATE_LIMIT_RETRIES))
    return client


def build_app(
    settings: Settings,
    secrets: Secrets,
    service: AnswerService,
    answer_log: AnswerLog,
    *,
    blobs: BlobStore,
    status: Callable[[], str] | None = None,
    reindex: Callable[[str | None], str] | None = None,
    on_vote: VoteHook | None = None,
    client: WebClient | None = None,
    work: BackgroundWork | None = None,
    cache: AnswerCache | None = None,
    topics: Topics | None = None,
    home_sections: Sequence[HomeSection] = (),
) -> App:
    """The policybot bolt app.

    Args:
        settings, secrets: configuration; the signing secret verifies HTTP-mode requests (without it
            HTTP requests are all rejected; Socket Mode does not need it).
        service: answers questions (``ask_stream``: progress, text, final Answer).
        answer_log: answers, votes and thread messages (thread memory, reactions, deletions).
        blobs: the shared blob store (``App.blobs``): event dedupe and welcome claims live there, so
            they survive restarts and are shared by replicas.
        status, reindex: callables behind the admin commands ``/policy status`` / ``/policy reindex``.
        on_vote: called as ``on_vote(answer_id, user, vote | None)`` after every vote change.
        client, work: override the WebClient (default :func:`make_client`) and the background executor.
        cache: the verified-answer cache: votes feed it, a deleted answer leaves it, admins get
            ``/policy cache stats|forget``. Lookups are the service's business.
        topics: ``topics(scope)`` → suggested questions for the DM welcome and the Home tab.
        home_sections: extra Home-tab sections, ``section(user_id) -> blocks`` (e.g. an admin report).

    Raises:
        ConfigError: no bot token.
    """
    client = client or make_client(settings, secrets)
    work = work or BackgroundWork()
    app = App(client=client, signing_secret=_signing_secret(secrets), process_before_response=True,
              ignoring_self_events_enabled=False)
    for hook in (on_vote, cache_vote_hook(answer_log, cache) if cache is not None else None):
        if hook is not None:
            answer_log.add_vote_hook(hook)
    bot = _bot(settings, secrets, service, answer_log, blobs, client, work, cache, topics, home_sections)
    bot.commands = Commands(settings, bot.responder, _allowed(bot, settings), status=status,
                            reindex=reindex, cache=cache)
    s = settings.slack

    def notify(q: Question, text: str) -> None:
        work.submit(bot.ephemeral, q, text)

    Gate(settings, answer_log, bot.dedupe, RateLimiter(s.user_rate_per_minute),
         RateLimiter(s.channel_rate_per_minute), notify=notify,
         members=Members(s.allowed_teams, lookup_client(client), notify), recent=bot.recent).install(app)
    register(app, bot)
    return app


def _bot(settings: Settings, secrets: Secrets, service: AnswerService, answer_log: AnswerLog,
         blobs: BlobStore, client: WebClient, work: BackgroundWork, cache: AnswerCache | None,
         topics: Topics | None, home_sections: Sequence[HomeSection]) -> Bot:
    replies_client = (make_client(settings, secrets, retry_rate_limits=False) if settings.slack.replies_top_up
                      else None)
    history = History(answer_log, replies_client)
    owner = f"{socket.gethostname()}:{os.getpid()}"
    home = Home(settings, Claims(blobs, "slack-welcome", ttl_s=WELCOME_EVERY_S, owner=owner), topics,
                home_sections)
    return Bot(client=client, responder=Responder(settings, client, service, answer_log, history),
               answer_log=answer_log, work=work, replies=Replies(settings, client),
               feedback=Feedback(settings, answer_log, cache), home=home,
               dedupe=Dedupe(blobs, lambda fn: work.submit(fn), owner=owner), recent=RecentThreads(),
               commands=lambda *a: None)


def _allowed(bot: Bot, settings: Settings) -> Callable[[Question], bool]:
    """The slash command's rate check (the middleware checks events; commands are not events)."""
    limit = RateLimiter(settings.slack.user_rate_per_minute)

    def allowed(q: Question) -> bool:
        if limit.allow(q.user):
            return True
        bot.ephemeral(q, SLOW_DOWN.format(limit=settings.slack.user_rate_per_minute))
        return False

    return allowed


def _signing_secret(secrets: Secrets) -> str:
    if secrets.slack_signing_secret:
        return secrets.slack_signing_secret
    log.info("SLACK_SIGNING_SECRET not set: HTTP mode will reject every request (Socket Mode is fine)")
    return pysecrets.token_hex(32)
