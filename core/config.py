"""Typed, frozen settings loaded from ``config.yaml``.

:func:`load_config` is the one way in: it reads the YAML file, applies CLI overrides, validates every
key with pydantic (unknown keys are rejected) and resolves relative paths against the config file's
folder. Secrets never live in the file: :class:`Secrets` reads them from the environment.

The sections live in :mod:`core.config_indexing`, :mod:`core.config_answering` and
:mod:`core.config_bot` (base: :mod:`core.config_base`); every name is re-exported here, so
``from core.config import ExtractionSettings`` keeps working.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, ValidationError, field_validator, model_validator

from core.config_answering import (
    AnswerSettings,
    LexiconSettings,
    LLMProviderSettings,
    LLMSettings,
    RerankSettings,
    RetrievalSettings,
)
from core.config_base import Section
from core.config_bot import (
    DEFAULT_REACTIONS,
    WEEKDAYS,
    CacheSettings,
    ChannelSettings,
    GapsSettings,
    LinksSettings,
    SlackSettings,
)
from core.config_errors import check_unique_keys, describe_validation
from core.config_indexing import (
    DEFAULT_IGNORES,
    ChunkingSettings,
    EmbeddingSettings,
    ExtractionSettings,
    IndexSettings,
    KeywordSettings,
    PoliciesSettings,
    StoreSettings,
    WatchSettings,
)
from core.errors import ConfigError
from core.store_location import check_uri, is_uri

__all__ = [
    "DEFAULT_IGNORES", "DEFAULT_REACTIONS", "WEEKDAYS", "AnswerSettings", "CacheSettings", "ChannelSettings",
    "ChunkingSettings", "EmbeddingSettings", "ExtractionSettings", "GapsSettings", "IndexSettings",
    "KeywordSettings", "LLMProviderSettings", "LLMSettings", "LexiconSettings", "LinksSettings",
    "PoliciesSettings", "RerankSettings", "RetrievalSettings", "Secrets", "Section", "Settings",
    "SlackSettings", "StoreSettings", "WatchSettings", "load_config",
]

_Section = Section  # the name the sections had before the split


class Settings(Section):
    """All of policybot's settings. ``config_path`` is the file they came from (None: defaults).

    ``data_dir`` is a local folder (a :class:`~pathlib.Path`) or an object-store URI kept as a string
    (``s3://bucket/prefix``, ``gs://…``, ``az://…``; :mod:`core.store_location`).
    """

    config_path: Path | None = None
    data_dir: Path | str = Path(".policybot")
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR"] = "WARNING"
    log_format: Literal["text", "json"] = "text"
    """``json``: one JSON object per line on stderr (``time``, ``level``, ``logger``, ``message``,
    ``request_id``), for log collectors; ``text``: the human format."""
    policies: PoliciesSettings = PoliciesSettings()
    extraction: ExtractionSettings = ExtractionSettings()
    chunking: ChunkingSettings = ChunkingSettings()
    embedding: EmbeddingSettings = EmbeddingSettings()
    keyword: KeywordSettings = KeywordSettings()
    retrieval: RetrievalSettings = RetrievalSettings()
    lexicon: LexiconSettings = LexiconSettings()
    rerank: RerankSettings = RerankSettings()
    answer: AnswerSettings = AnswerSettings()
    llm: LLMSettings = LLMSettings()
    slack: SlackSettings = SlackSettings()
    links: LinksSettings = LinksSettings()
    cache: CacheSettings = CacheSettings()
    gaps: GapsSettings = GapsSettings()
    watch: WatchSettings = WatchSettings()
    index: IndexSettings = IndexSettings()
    store: StoreSettings = StoreSettings()

    @field_validator("data_dir", mode="before")
    @classmethod
    def _data_dir_folder_or_uri(cls, v: object) -> object:
        """A ``scheme://`` string stays a (checked) URI string; anything else becomes a Path."""
        if v is None or str(v).strip() == "":
            raise ValueError("data_dir must name a folder or an object-store URI (empty path)")
        if not isinstance(v, str | Path):
            raise ValueError("data_dir must be a folder path or an object-store URI written as text "
                             f"(e.g. data_dir: .policybot), not {type(v).__name__} {v!r}")
        if is_uri(v):
            try:
                return check_uri(str(v))
            except ConfigError as exc:
                raise ValueError(str(exc)) from None
        return v if isinstance(v, Path) else Path(str(v))

    @model_validator(mode="before")
    @classmethod
    def _empty_sections_are_defaults(cls, data: object) -> object:
        """A section present but empty (``policies:`` reads as null) means its defaults."""
        if not isinstance(data, dict):
            return data
        sections = {name for name, f in cls.model_fields.items()
                    if isinstance(f.annotation, type) and issubclass(f.annotation, Section)}
        return {k: v for k, v in data.items() if not (v is None and k in sections)}


class Secrets(BaseModel):
    """Secrets, read only from environment variables (never from ``config.yaml``)."""

    model_config = ConfigDict(frozen=True)

    slack_bot_token: str | None = None
    slack_app_token: str | None = None
    slack_signing_secret: str | None = None
    gemini_api_key: str | None = None

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> Secrets:
        """Read ``SLACK_BOT_TOKEN``, ``SLACK_APP_TOKEN``, ``SLACK_SIGNING_SECRET``, ``GEMINI_API_KEY``."""
        e = os.environ if env is None else env
        return cls(
            slack_bot_token=e.get("SLACK_BOT_TOKEN") or None,
            slack_app_token=e.get("SLACK_APP_TOKEN") or None,
            slack_signing_secret=e.get("SLACK_SIGNING_SECRET") or None,
            gemini_api_key=e.get("GEMINI_API_KEY") or None,
        )


def load_config(
    path: Path | None = None,
    *,
    data_dir: Path | str | None = None,
    policy_root: Path | None = None,
) -> Settings:
    """Load settings from ``path`` (YAML) with CLI overrides applied.

    Args:
        path: the config file. ``None`` uses ``./config.yaml`` when it exists, else built-in defaults.
        data_dir: overrides ``data_dir`` (the ``--data-dir`` CLI option): a folder, or an
            object-store URI string (``s3://bucket/prefix``).
        policy_root: overrides ``policies.root``.

    Returns:
        Frozen :class:`Settings`; relative paths in the file are resolved against the file's folder,
        CLI overrides against the current directory.

    Raises:
        ConfigError: the file is missing, not YAML, or holds a key twice (file, line and key), or a key
            is unknown or its value is not allowed (file, dotted key, what is wrong and what is allowed:
            :mod:`core.config_errors`).

    """
    if path is None and Path("config.yaml").is_file():
        path = Path("config.yaml")
    raw: dict[str, Any] = {}
    base = Path.cwd()
    if path is not None:
        raw = _read_yaml(path)
        base = path.resolve().parent
        raw["config_path"] = str(path.resolve())
    try:
        settings = Settings.model_validate(raw)
    except ValidationError as exc:
        raise ConfigError(describe_validation(exc, str(path) if path is not None else "built-in defaults",
                                              Settings)) from None
    if isinstance(data_dir, str) and is_uri(data_dir):
        data_dir = check_uri(data_dir)
    return _resolve_paths(settings, base, data_dir, policy_root)


def _read_yaml(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read the config file ({exc.strerror}); check --config") from None
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: not valid UTF-8 (byte {exc.start}); save the file as UTF-8") from None
    try:
        check_unique_keys(text, path)
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise ConfigError(_yaml_error(path, exc)) from None
    if data is None:
        return {}
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: the top level must be a mapping of sections (policies:, chunking:, ...)")
    if "config_path" in data:
        raise ConfigError(f"{path}: key 'config_path' is set by policybot; remove it")
    return dict(data)


def _yaml_error(path: Path, exc: yaml.YAMLError) -> str:
    """``FILE:LINE:COLUMN: not valid YAML: <problem>; fix the syntax there`` (1-based line and column)."""
    mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
    problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
    context = getattr(exc, "context", None)
    where = f"{path}:{mark.line + 1}:{mark.column + 1}" if mark is not None else str(path)
    return f"{where}: not valid YAML: {problem}{f' ({context})' if context else ''}; fix the syntax there"


def _resolve_paths(
    s: Settings, base: Path, data_dir: Path | str | None, policy_root: Path | None
) -> Settings:
    dd: Path | str
    if isinstance(data_dir, str) and is_uri(data_dir):
        dd = data_dir  # an object-store URI (checked): never a local path
    elif data_dir is not None:
        dd = (Path.cwd() / data_dir).resolve()
    else:
        dd = s.data_dir if isinstance(s.data_dir, str) else (base / s.data_dir).resolve()
    root = (Path.cwd() / policy_root) if policy_root is not None else (base / s.policies.root)
    policies = s.policies.model_copy(update={"root": root.resolve()})
    return s.model_copy(update={"data_dir": dd, "policies": policies})
