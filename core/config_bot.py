"""Settings sections of the Slack bot: Slack itself, citation links, the verified-answer cache and the
knowledge-gap report (re-exported by :mod:`core.config`)."""

from __future__ import annotations

import re
from typing import Literal

from pydantic import Field, field_validator

from core.config_base import Section

DEFAULT_REACTIONS: dict[str, Literal["up", "down"]] = {
    "+1": "up", "white_check_mark": "up", "-1": "down", "x": "down",
}


class ChannelSettings(Section):
    """Per-channel behaviour: which folders it may search and whether follow-ups need a mention."""

    scope: tuple[str, ...] = ("**",)
    mention_only: bool = False


class SlackSettings(Section):
    """Slack connection and behaviour. Tokens come from the environment, never from here.

    ``answer_timeout_s``: a question still unanswered after this many seconds (counted from its
    arrival) gets one "giving up" reply with an error id instead of a late answer. ``allowed_teams``:
    team (``T…``) or enterprise (``E…``) ids whose members may use the bot (Slack Connect: every
    surface, bot/membership.py), besides the installing organisation. ``replies_top_up``: read
    ``conversations.replies`` (best effort, once per thread) for messages posted in a thread before
    the bot took part in it; the thread's later messages come from events and need no API call.
    """

    api_base_url: str = "https://slack.com/api/"
    channels: dict[str, ChannelSettings] = Field(default_factory=dict)
    default_scope: tuple[str, ...] = ("**",)
    admins: tuple[str, ...] = ()
    reactions: dict[str, Literal["up", "down"]] = Field(default_factory=lambda: dict(DEFAULT_REACTIONS))
    user_rate_per_minute: int = Field(10, ge=1)
    channel_rate_per_minute: int = Field(60, ge=1)
    stream: bool = True
    answer_timeout_s: float = Field(60.0, gt=0)
    allowed_teams: tuple[str, ...] = ()
    replies_top_up: bool = True
    mode: Literal["socket", "http"] | None = None
    """``socket`` or ``http``; unset: HTTP mode only with ``run --http-port``, else Socket Mode with
    ``SLACK_APP_TOKEN`` (never guessed from missing tokens)."""
    http_port: int = Field(3000, ge=0, le=65535)
    http_host: str = "0.0.0.0"


class LinksSettings(Section):
    """When ``base_url`` is set, citations link to ``base_url + path``."""

    base_url: str | None = None


class CacheSettings(Section):
    """Verified-answer cache fed by 👍/👎 reactions."""

    enabled: bool = True
    min_net_upvotes: int = Field(1, ge=1)
    similarity_threshold: float = Field(0.92, ge=0.0, le=1.0)
    ttl_days: int = Field(90, ge=1)
    expire_interval_s: float = Field(3600.0, gt=0)


_SLACK_ID = re.compile(r"[UWCG][A-Z0-9]{2,}")
WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


class GapsSettings(Section):
    """The knowledge-gap report (``policybot gaps``) and its weekly post to policy owners.

    ``owners`` maps folder globs (as in channel scopes: ``hr/**``) to a Slack user id (``U…``/``W…``,
    posted as a DM) or channel id (``C…``/``G…``). ``similarity_threshold`` is the average cosine
    similarity at which questions are grouped, ``reask_similarity`` the similarity at which a user's
    next question within ``reask_window_s`` seconds is the same question again (docs/gaps.md records
    the calibration of both).
    """

    enabled: bool = True
    owners: dict[str, str] = Field(default_factory=dict)
    since_days: int = Field(7, ge=1, le=366)
    similarity_threshold: float = Field(0.45, gt=0.0, le=1.0)
    reask_similarity: float = Field(0.62, gt=0.0, le=1.0)
    reask_window_s: float = Field(600.0, gt=0)
    min_answerability: float = Field(0.5, ge=0.0, le=1.0)
    weekday: Literal["mon", "tue", "wed", "thu", "fri", "sat", "sun"] = "mon"
    hour: int = Field(9, ge=0, le=23)
    timezone: str = "UTC"
    check_interval_s: float = Field(3600.0, gt=0)

    @field_validator("owners")
    @classmethod
    def _owner_ids(cls, v: dict[str, str]) -> dict[str, str]:
        for glob, owner in v.items():
            if not glob.strip():
                raise ValueError("an owners folder glob is empty; write e.g. \"hr/**\"")
            if not _SLACK_ID.fullmatch(owner):
                raise ValueError(f"{glob!r}: {owner!r} is not a Slack user (U…) or channel (C…) id")
        return v

    @field_validator("timezone")
    @classmethod
    def _known_zone(cls, v: str) -> str:
        from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

        try:
            ZoneInfo(v)
        except (ZoneInfoNotFoundError, ValueError):
            raise ValueError(f"{v!r} is not an IANA time zone; use e.g. UTC or Europe/Berlin") from None
        return v
