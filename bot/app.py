"""Build the slack-bolt app from its collaborators (no globals; the CLI builds them once).

``build_app(settings, secrets, service, answer_log, ...)`` returns a bolt :class:`~slack_bolt.App`
whose listeners ack at once and answer in the background. The Web API base URL comes from
``slack.api_base_url`` so the whole process can run against a local Slack; outgoing 429s are retried by
slack_sdk's ``RateLimitErrorRetryHandler`` (it honours ``Retry-After``).
"""

from __future__ import annotations

import logging
import secrets as pysecrets
from collections.abc import Callable

from slack_bolt import App
from slack_sdk import WebClient
from slack_sdk.http_retry.builtin_handlers import RateLimitErrorRetryHandler

from bot.commands import Commands
from bot.guards import Deduper, RateLimiter
from bot.listeners import Bot, register
from bot.responder import Responder
from bot.work import BackgroundWork
from core.answer_log import AnswerLog, VoteHook
from core.cache import AnswerCache
from core.cache.service import cache_vote_hook
from core.config import Secrets, Settings
from core.errors import ConfigError
from core.service import AnswerService

log = logging.getLogger(__name__)

RATE_LIMIT_RETRIES = 3


def make_client(settings: Settings, secrets: Secrets) -> WebClient:
    """A WebClient for ``slack.api_base_url`` with the bot token, retrying 429s (``Retry-After``).

    Raises:
        ConfigError: ``SLACK_BOT_TOKEN`` is not set.
    """
    if not secrets.slack_bot_token:
        raise ConfigError("SLACK_BOT_TOKEN is not set; export the bot token (xoxb-...) to connect to Slack")
    client = WebClient(token=secrets.slack_bot_token, base_url=settings.slack.api_base_url)
    client.retry_handlers.append(RateLimitErrorRetryHandler(max_retry_count=RATE_LIMIT_RETRIES))
    return client


def build_app(
    settings: Settings,
    secrets: Secrets,
    service: AnswerService,
    answer_log: AnswerLog,
    *,
    status: Callable[[], str] | None = None,
    reindex: Callable[[str | None], str] | None = None,
    on_vote: VoteHook | None = None,
    client: WebClient | None = None,
    work: BackgroundWork | None = None,
    cache: AnswerCache | None = None,
) -> App:
    """The policybot bolt app.

    Args:
        settings, secrets: configuration; the signing secret verifies HTTP-mode requests (without it
            HTTP requests are all rejected; Socket Mode does not need it).
        service: answers questions (``ask`` / ``ask_stream``).
        answer_log: the answer log and votes (thread memory, reactions).
        status, reindex: callables behind the admin commands ``/policy status`` / ``/policy reindex``.
        on_vote: called as ``on_vote(answer_id, user, vote | None)`` after every vote change.
        client, work: override the WebClient (default :func:`make_client`) and the background executor.
        cache: the verified-answer cache: votes feed it (:func:`core.cache.service.cache_vote_hook`) and
            admins get ``/policy cache stats|forget``. Lookups are the service's business (pass a
            :class:`core.cache.service.CachedAnswerService` as ``service``).

    Raises:
        ConfigError: no bot token.
    """
    client = client or make_client(settings, secrets)
    signing = secrets.slack_signing_secret
    if not signing:
        log.info("SLACK_SIGNING_SECRET not set: HTTP mode will reject every request (Socket Mode is fine)")
        signing = pysecrets.token_hex(32)
    app = App(client=client, signing_secret=signing, process_before_response=True)
    if on_vote is not None:
        answer_log.add_vote_hook(on_vote)
    if cache is not None:
        answer_log.add_vote_hook(cache_vote_hook(answer_log, cache))
    responder = Responder(settings, client, service, answer_log)
    s = settings.slack
    bot = Bot(settings=settings, responder=responder, answer_log=answer_log, work=work or BackgroundWork(),
              dedupe=Deduper(), user_limit=RateLimiter(s.user_rate_per_minute),
              channel_limit=RateLimiter(s.channel_rate_per_minute), commands=lambda *a: None)
    bot.commands = Commands(settings, responder, bot.allowed, status=status, reindex=reindex, cache=cache)
    register(app, bot)
    return app
