"""The base of every settings section: frozen, unknown keys rejected, no .inf / .nan (pydantic
``ConfigDict``: https://docs.pydantic.dev/latest/api/config/)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Section(BaseModel):
    """A ``config.yaml`` section: frozen, ``extra="forbid"`` (a misspelt key is an error, not ignored)
    and ``allow_inf_nan=False``."""

    # no .inf / .nan: an infinite timeout overflows the OS calls it reaches (every file failed with
    # "OverflowError: cannot convert float infinity to integer")
    model_config = ConfigDict(frozen=True, extra="forbid", allow_inf_nan=False)
