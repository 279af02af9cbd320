"""Slack Connect: only members of the installing organisation get anything from the bot, on every surface.

One Bolt middleware (:meth:`Members.check`, installed by :class:`bot.middleware.Gate` after the question
gate) looks at every request that has a person behind it — a question (message / ``app_mention``), a
reaction, the App Home or DM being opened, the ``/policy`` command (any subcommand), a block action (the
feedback buttons), a view submission (the 👎 reason), a shortcut — and stops a request from outside
before any listener runs: the answer service is never called, no vote is set (so no verified answer is
admitted or invalidated), no suggested prompt or Home tab is shown. Where a reply is expected the person
gets :data:`OUTSIDE_NOTICE`: in the question's thread, ephemeral; for ``/policy``, as the command's
ephemeral response. Everything else is acknowledged and dropped.

Who is a member (https://docs.slack.dev/apis/slack-connect/): the installing organisation is the app's
installation (Bolt's ``authorize_result``: ``auth.test``'s team and enterprise) plus, for events, the
envelope's ``authorizations``, ``team_id`` and ``enterprise_id``; ``slack.allowed_teams`` adds team or
enterprise ids. The payload says who acted: a message's ``user_team`` / ``team``, an interaction's
``user.team_id``. A person of a home team is a member; of another team, outside — unless the install is
an Enterprise Grid one, where another workspace may belong to the same enterprise. An event in a
conversation not shared with another organisation (``is_ext_shared_channel: false``) without a team is
a member's. Everything else — the slash command (its ``team_id`` is where the command was typed, not
necessarily the person's organisation), the App Home (no team, no channel flag), a reaction in a shared
channel, an enterprise case — is decided by ``users.info`` (the person's team and enterprise), cached
for :data:`LOOKUP_TTL_S`. A lookup that fails counts as outside and is not cached (fail closed).
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Literal

from cachetools import TTLCache
from slack_bolt import BoltContext, BoltResponse
from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from bot.questions import QUESTION, THREAD, Question, user_team
from bot.render import render_notice

log = logging.getLogger(__name__)

Org = Literal["member", "outside", "unknown"]
"""Whether a person belongs to the installing organisation (``unknown``: ask ``users.info``)."""
Surface = Literal["message", "reaction", "home", "command", "action", "view", "shortcut"]

OUTSIDE_NOTICE = ("Sorry, I answer policy questions only for members of the organisation that "
                  "installed me.")
LOOKUP_TTL_S = 600.0
"""How long a ``users.info`` verdict is reused (membership changes rarely; users.info is a Tier 4
method, https://docs.slack.dev/reference/methods/users.info)."""
LOOKUP_CACHE_SIZE = 10_000
LOOKUP_TIMEOUT_S = 2
"""Seconds; the lookup runs before the ack, which Slack wants within 3 s
(https://docs.slack.dev/interactivity/implementing-slash-commands): a slow Slack counts as outside rather
than a late ack."""
EVENT_SURFACES: dict[str, Surface] = {
    "message": "message", "app_mention": "message", "reaction_added": "reaction",
    "reaction_removed": "reaction", "app_home_opened": "home"}
INTERACTION_SURFACES: dict[str, Surface] = {
    "block_actions": "action", "block_suggestion": "action", "view_submission": "view",
    "view_closed": "view", "shortcut": "shortcut", "message_action": "shortcut"}
Notify = Callable[[Question, str], None]


@dataclass(frozen=True)
class Actor:
    """The person behind a request: ``team`` is their own team (or enterprise) id when the payload
    names it; ``shared`` the event's ``is_ext_shared_channel`` (None where the payload does not say)."""

    user: str
    surface: Surface
    team: str | None = None
    shared: bool | None = None


def actor_of(body: dict[str, Any]) -> Actor | None:
    """The :class:`Actor` of a Bolt request body, or None when no person is behind it (a deletion,
    an event type the bot does not act on)."""
    if body.get("type") == "event_callback":
        event = body.get("event") or {}
        surface, user = EVENT_SURFACES.get(str(event.get("type"))), event.get("user")
        if surface is None or not isinstance(user, str) or not user:
            return None
        team = user_team(event) if surface == "message" else None
        shared = None if surface == "home" else bool(body.get("is_ext_shared_channel"))
        return Actor(user, surface, team, shared)
    if body.get("command") and body.get("user_id"):
        return Actor(str(body["user_id"]), "command")
    surface, user = INTERACTION_SURFACES.get(str(body.get("type"))), body.get("user")
    if surface is None or not isinstance(user, dict) or not user.get("id"):
        return None
    return Actor(str(user["id"]), surface, user.get("team_id") or None)


def home_ids(body: dict[str, Any], installed: Iterable[str | None] = (),
             allowed: Iterable[str] = ()) -> frozenset[str]:
    """Team and enterprise ids of the installing organisation: ``installed`` (the authorize result),
    an event's ``authorizations`` and envelope ids, plus ``allowed``."""
    ids = {*installed, *allowed}
    if body.get("type") == "event_callback":
        ids |= {body.get("team_id"), body.get("enterprise_id")}
        for auth in body.get("authorizations") or []:
            ids |= {auth.get("team_id"), auth.get("enterprise_id")}
    return frozenset(str(i) for i in ids if i)


def enterprise_install(body: dict[str, Any], installed_enterprise: str | None) -> bool:
    """True when the installing organisation is an Enterprise Grid organisation."""
    if body.get("type") != "event_callback":
        return bool(installed_enterprise)
    auths = body.get("authorizations") or []
    return bool(installed_enterprise or body.get("enterprise_id")
                or any(a.get("enterprise_id") for a in auths))


def verdict(actor: Actor, home: frozenset[str], enterprise: bool) -> Org:
    """``member``, ``outside`` or ``unknown`` (only ``users.info`` can tell) from the payload alone."""
    if actor.team is not None:
        if actor.team in home:
            return "member"
        return "unknown" if enterprise else "outside"
    return "member" if actor.shared is False else "unknown"


def resolve(client: WebClient, user: str, home: Iterable[str]) -> bool | None:
    """True when ``users.info`` puts ``user`` in a team or enterprise of ``home``, False when it does
    not, None when the lookup failed."""
    try:
        info = client.users_info(user=user)["user"]
    except (SlackApiError, OSError) as exc:
        reason = exc.response.get("error") if isinstance(exc, SlackApiError) else exc
        log.warning("users.info for %s failed (%s); treated as outside", user, reason)
        return None
    enterprise_user = info.get("enterprise_user") or {}
    ids = {info.get("team_id"), info.get("enterprise_id"), enterprise_user.get("enterprise_id")}
    return bool({str(i) for i in ids if i} & set(home))


@dataclass
class Members:
    """The membership middleware (module doc). ``client`` makes the ``users.info`` lookups (use one
    with a short timeout: :func:`lookup_client`); ``notify(q, text)`` tells an asker something
    ephemeral in the background."""

    allowed: tuple[str, ...]
    client: WebClient
    notify: Notify
    _cache: TTLCache[tuple[str, frozenset[str]], bool] = field(
        default_factory=lambda: TTLCache(LOOKUP_CACHE_SIZE, LOOKUP_TTL_S), repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def check(self, body: dict[str, Any], context: BoltContext,
              next: Callable[[], None]) -> BoltResponse | None:  # noqa: A002 (bolt's name)
        """Let a member's request (or one with no person behind it) through; stop anyone else's."""
        actor = actor_of(body)
        idle = actor is not None and actor.surface == "message" and not (context.get(QUESTION)
                                                                          or context.get(THREAD))
        if actor is None or idle or self.is_member(actor, body, context):
            next()
            return None
        log.info("%s from %s, outside the installing organisation: not served", actor.surface, actor.user)
        if actor.surface == "command":
            msg = render_notice(OUTSIDE_NOTICE)
            return BoltResponse(status=200, body={"response_type": "ephemeral", "text": msg.text,
                                                  "blocks": msg.blocks})
        q: Question | None = context.get(QUESTION)
        if q is not None:
            self.notify(q, OUTSIDE_NOTICE)
        return BoltResponse(status=200, body="")

    def is_member(self, actor: Actor, body: dict[str, Any], context: BoltContext) -> bool:
        """The payload's verdict, finished with a (cached) ``users.info`` lookup when it is unknown."""
        auth = context.authorize_result
        installed = (auth.team_id, auth.enterprise_id) if auth is not None else ()
        home = home_ids(body, installed, self.allowed)
        found = verdict(actor, home, enterprise_install(body, auth.enterprise_id if auth else None))
        return found == "member" or (found == "unknown" and self.lookup(actor.user, home))

    def lookup(self, user: str, home: frozenset[str]) -> bool:
        """``users.info`` says ``user`` belongs to ``home`` (cached; a failed lookup is False, uncached)."""
        with self._lock:
            known = self._cache.get((user, home))
        if known is not None:
            return known
        member = resolve(self.client, user, home)
        if member is None:
            return False
        with self._lock:
            self._cache[(user, home)] = member
        return member


def lookup_client(client: WebClient) -> WebClient:
    """A client like ``client`` (token, base URL) with a :data:`LOOKUP_TIMEOUT_S` timeout and no
    rate-limit retries: the lookup runs before the request is acknowledged."""
    return WebClient(token=client.token, base_url=client.base_url, timeout=LOOKUP_TIMEOUT_S)
