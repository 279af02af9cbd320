"""Is a model's weights folder on this machine? Answered from the file system alone (no torch, no
``huggingface_hub`` import), so ``policybot status`` can say which reranker will run in milliseconds.

A model is available when its name is a local folder holding ``config.json``, or a Hub id whose
``config.json`` sits in a snapshot of the local Hugging Face cache. Cache layout
(``<cache>/models--<org>--<name>/snapshots/<revision>/config.json``, ``<cache>`` from
``HF_HUB_CACHE``, else ``HF_HOME/hub``, else ``~/.cache/huggingface/hub``):
https://huggingface.co/docs/huggingface_hub/guides/manage-cache
"""

from __future__ import annotations

import os
from pathlib import Path


def hub_cache_dir() -> Path:
    """The local Hugging Face Hub cache folder (environment variables as huggingface_hub reads them)."""
    explicit = os.environ.get("HF_HUB_CACHE") or os.environ.get("HUGGINGFACE_HUB_CACHE")
    if explicit:
        return Path(explicit).expanduser()
    home = os.environ.get("HF_HOME") or os.path.join(os.environ.get("XDG_CACHE_HOME", "~/.cache"),
                                                     "huggingface")
    return Path(home).expanduser() / "hub"


def model_available(model: str, marker: str = "config.json") -> bool:
    """True when ``model`` is a local folder with ``marker`` or a Hub id cached with ``marker``."""
    path = Path(model).expanduser()
    if path.is_dir():
        return (path / marker).is_file()
    if model.count("/") > 1 or path.is_absolute() or not model.strip():
        return False
    snapshots = hub_cache_dir() / f"models--{model.replace('/', '--')}" / "snapshots"
    try:
        return any((rev / marker).is_file() for rev in snapshots.iterdir())
    except OSError:
        return False
