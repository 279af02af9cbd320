"""A rich progress bar that fits the indexer's ``progress(relative path, files done, files total)``."""

from __future__ import annotations

from types import TracebackType

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn


class RichProgress:
    """Context manager; call it as ``progress(path, done, total)``. Disabled: a silent no-op."""

    def __init__(self, enabled: bool = True, console: Console | None = None) -> None:
        self.enabled = enabled
        self._bar = Progress(TextColumn("[bold]indexing"), BarColumn(), MofNCompleteColumn(),
                             TimeElapsedColumn(), TextColumn("{task.description}", markup=False),
                             console=console or Console(stderr=True), transient=True)
        self._task = self._bar.add_task("", total=None)

    def __enter__(self) -> RichProgress:
        if self.enabled:
            self._bar.start()
        return self

    def __exit__(self, t: type[BaseException] | None, e: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self.enabled:
            self._bar.stop()

    def __call__(self, path: str, done: int, total: int) -> None:
        """Show ``path`` and ``done``/``total`` files."""
        if self.enabled:
            self._bar.update(self._task, completed=done, total=total, description=path[-60:])
