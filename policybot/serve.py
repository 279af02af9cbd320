"""Wire the Slack bot (``bot/``) to the collaborators of :class:`~policybot.factory.App` and serve it.

Socket Mode when ``SLACK_APP_TOKEN`` is set (no public URL needed), otherwise HTTP mode on
:data:`HTTP_PORT` (``/slack/events``, verified with ``SLACK_SIGNING_SECRET``).
"""

from __future__ import annotations

import json
import logging

from policybot.factory import App
from policybot.status import collect

log = logging.getLogger(__name__)

HTTP_PORT = 3000
"""Port of the Events API endpoint in HTTP mode (the slack-bolt default)."""


def serve_slack(app: App) -> None:
    """Build the bolt app on ``app.cached_service`` (votes feed ``app.answer_cache``) and serve until
    interrupted (blocks).

    Raises:
        ConfigError: ``SLACK_BOT_TOKEN`` is not set.
    """
    from bot.app import build_app
    from bot.home_admin import admin_section
    from bot.runner import run_http, run_socket_mode
    from core.gaps.jobs import load_latest
    from core.topics import suggested_questions

    cache = app.answer_cache if app.settings.cache.enabled else None
    admin = admin_section(app.settings.slack.admins, lambda: collect(app.settings, app.store),
                          lambda: load_latest(app.blobs))
    bolt = build_app(app.settings, app.secrets, app.cached_service, app.answer_log, blobs=app.blobs,
                     status=lambda: _status_text(app), reindex=lambda path: _reindex_text(app, path),
                     cache=cache, topics=lambda scope: suggested_questions(app.store, scope),
                     home_sections=[admin])
    if app.secrets.slack_app_token:
        run_socket_mode(bolt, app.secrets.slack_app_token)
    else:
        run_http(bolt, HTTP_PORT)


def _status_text(app: App) -> str:
    data = collect(app.settings, app.store)
    docs = data["documents"]
    failed = [f"• {f['path']}: {f['error']}" for f in data["files"] if f["status"] == "failed"]
    head = f"{docs['indexed']} documents indexed, {docs['failed']} failed, {data['chunks']} chunks"
    return "\n".join([head, *failed])


def _reindex_text(app: App, path: str | None) -> str:
    root = app.settings.policies.root
    if path is None:
        return json.dumps(app.indexer.reconcile(root).to_json())
    return str(app.indexer.index_path(root / path))
