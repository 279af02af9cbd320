"""The one exception hierarchy of policybot.

Every error a user can cause or fix derives from :class:`PolicybotError`; its message says what went
wrong *and what to do*. The CLI and the Slack renderer turn these into user text in one place each.
"""

from __future__ import annotations


class PolicybotError(Exception):
    """Base class: a problem with a message fit to show a user (it names the file or key and the fix)."""


class ConfigError(PolicybotError):
    """`config.yaml` (or a CLI override) holds an unknown key or a bad value; the message names both."""


class ExtractionError(PolicybotError):
    """A policy file could not be read (encrypted, truncated, empty, mislabelled, ...).

    The message is one line, recorded in the documents table as the file's failure reason.
    """


class IndexLockedError(PolicybotError):
    """Another indexer already writes to this data dir (one writer only)."""


class StoreError(PolicybotError):
    """The LanceDB store under the data dir is missing, unreadable or of another schema version."""


class ProviderError(PolicybotError):
    """An answer provider (LLM) failed: timeout, HTTP error, blocked or empty answer.

    The fallback chain catches it and tries the next provider.
    """


class ModelLoadError(PolicybotError):
    """An embedding or reranker model could not be loaded from the configured name or path."""


class DatasetError(PolicybotError):
    """An eval question set (QA YAML) is unreadable or malformed.

    The message names the file, the item and the field."""


class RootMismatchError(PolicybotError):
    """A reconcile would index another policy folder than the one the index holds; nothing was
    removed. The message names both folders and ``--switch-root``."""


class ReconcileAbortedError(PolicybotError):
    """A reconcile was stopped and rolled back because every file failed for the same reason that is
    not the files' fault (model, disk, permission, worker), or because it would have replaced a
    non-empty index with an empty one."""


class ServiceUnreachableError(PolicybotError):
    """A network service (Slack, an LLM endpoint) could not be reached: DNS, refused, TLS or timeout.
    The message names the service, the address and what to check."""


class CredentialError(PolicybotError):
    """A service refused a credential (a token or key) it was given; the message names the environment
    variable, the service's error code and how to get a valid one."""


class IndexingStopped(Exception):  # noqa: N818 - a stop request, not an error
    """An index operation stopped at a file boundary because the process is shutting down
    (Ctrl-C / SIGTERM); everything written so far is consistent and a re-run continues."""
