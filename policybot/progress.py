"""A rich progress bar for the indexer: ``progress(relative path, files done, files total)`` per file,
and ``progress.pages(path, page, pages)`` while a file's chunks are embedded, so a 400-page PDF moves
the bar page by page (the bar counts files; the current file's share is its pages embedded so far)."""

from __future__ import annotations

from types import TracebackType

from rich.console import Console
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn


class RichProgress:
    """Context manager; disabled (or when stderr is not a terminal) it only counts, for the interrupt
    message."""

    def __init__(self, enabled: bool = True, console: Console | None = None) -> None:
        console = console or Console(stderr=True)
        self.enabled = enabled and console.is_terminal  # no bar (not even a blank line) in logs or pipes
        self.done = 0
        self.total = 0
        self._bar = Progress(TextColumn("[bold]indexing"), BarColumn(),
                             TextColumn("{task.fields[files]}", markup=False), TimeElapsedColumn(),
                             TextColumn("{task.description}", markup=False),
                             console=console, transient=True)
        self._task = self._bar.add_task("", total=None, files="")

    def __enter__(self) -> RichProgress:
        if self.enabled:
            self._bar.start()
        return self

    def __exit__(self, t: type[BaseException] | None, e: BaseException | None,
                 tb: TracebackType | None) -> None:
        if self.enabled:
            self._bar.stop()

    def __call__(self, path: str, done: int, total: int) -> None:
        """File ``path`` is next; ``done`` of ``total`` files are finished."""
        self.done, self.total = done, total
        if self.enabled:
            self._bar.update(self._task, completed=done, total=max(total, 1),
                             files=f"{done}/{total} files", description=path[-60:])

    def pages(self, path: str, page: int, pages: int) -> None:
        """Within the current file: chunks up to ``page`` of ``pages`` are embedded."""
        if self.enabled and pages > 0:
            share = min(page, pages) / pages
            self._bar.update(self._task, completed=self.done + share,
                             description=f"{path[-50:]} · page {min(page, pages)}/{pages}")

    def interrupt_note(self) -> str:
        """What an interrupted run finished, for the one-line interrupt message."""
        if not self.total:
            return "nothing was indexed yet; run the same command again to start over"
        return (f"{self.done} of {self.total} files were done and are kept in the index; run the same "
                "command again to continue with the rest")
