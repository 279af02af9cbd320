"""Slack Connect: in a channel shared with other organisations, only members of the installing
organisation get policy content.

An event from a shared channel has ``is_ext_shared_channel: true`` and names the author's team
(``user_team`` / ``team``; https://docs.slack.dev/apis/slack-connect/). The installing organisation is
the app's authorization (``authorizations[].team_id`` / ``enterprise_id``, and the envelope's
``team_id`` / ``enterprise_id``); ``slack.allowed_teams`` adds team or enterprise ids. A user of one of
those teams is a member. In an Enterprise Grid install a user of another workspace of the same
enterprise is a member too; telling that needs ``users.info`` (the user's enterprise id), so the check
is then finished in the background (:func:`resolve`). Everybody else is outside: a one-line notice,
no call to the answer service.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from slack_sdk import WebClient
from slack_sdk.errors import SlackApiError

from bot.questions import Org, user_team

log = logging.getLogger(__name__)

OUTSIDE_NOTICE = ("Sorry, I answer policy questions only for members of the organisation that "
                  "installed me.")


def home_ids(body: dict[str, Any], allowed: Iterable[str] = ()) -> frozenset[str]:
    """Team and enterprise ids of the installing organisation, plus ``allowed``."""
    ids = {body.get("team_id"), body.get("enterprise_id"), *allowed}
    for auth in body.get("authorizations") or []:
        ids |= {auth.get("team_id"), auth.get("enterprise_id")}
    return frozenset(str(i) for i in ids if i)


def membership(body: dict[str, Any], event: dict[str, Any], allowed: Iterable[str] = ()) -> Org:
    """``member`` (not a shared channel, or the author's team is home), ``outside``, or ``unknown``
    (a shared channel of an enterprise install, or no team on the event: ask :func:`resolve`)."""
    if not body.get("is_ext_shared_channel"):
        return "member"
    home = home_ids(body, allowed)
    team = user_team(event)
    if team and team in home:
        return "member"
    enterprise = any(str(a.get("enterprise_id") or "") for a in body.get("authorizations") or [])
    return "unknown" if team is None or enterprise or body.get("enterprise_id") else "outside"


def resolve(client: WebClient, user: str, home: Iterable[str]) -> bool:
    """True when ``users.info`` puts ``user`` in a team or enterprise of ``home``; False when it
    does not or the lookup fails (outside until proven a member)."""
    try:
        info = client.users_info(user=user)["user"]
    except SlackApiError as exc:
        log.warning("users.info for %s failed (%s); treating as outside", user, exc.response.get("error"))
        return False
    enterprise_user = info.get("enterprise_user") or {}
    ids = {info.get("team_id"), info.get("enterprise_id"), enterprise_user.get("enterprise_id")}
    return bool({str(i) for i in ids if i} & set(home))
