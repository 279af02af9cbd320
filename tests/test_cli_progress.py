"""Progress in pages (issue 15, item 8): while a long PDF's chunks are embedded the indexer reports the
page reached, so the bar moves inside the file and names it. A generated 120-page PDF (fpdf2), the
fake embedder, real LanceDB; the rich bar is rendered to a terminal-like buffer.
"""

from __future__ import annotations

import io
import random
from pathlib import Path

from fpdf import FPDF
from rich.console import Console

from core.config import Settings
from core.embedder import FakeEmbedder
from core.store import Store
from indexer.pipeline import Indexer
from policybot.progress import RichProgress

PAGES = 120


class Recorder:
    """A progress object recording file and page calls."""

    def __init__(self) -> None:
        self.files: list[tuple[str, int, int]] = []
        self.page_calls: list[tuple[str, int, int]] = []

    def __call__(self, path: str, done: int, total: int) -> None:
        self.files.append((path, done, total))

    def pages(self, path: str, page: int, pages: int) -> None:
        self.page_calls.append((path, page, pages))


WORDS = ("leave", "travel", "expense", "approval", "manager", "receipt", "hotel", "train", "flight", "meal",
         "parent", "child", "insurance", "premium", "claim", "doctor", "hospital", "laptop", "phone",
         "office",
         "remote", "salary", "bonus", "pension", "notice", "contract", "training", "budget", "safety",
         "equipment", "holiday", "overtime")


def _long_pdf(path: Path) -> None:
    """PAGES pages of distinct sentences (repeated lines would be dropped as headers/footers)."""
    rng = random.Random(7)
    pdf = FPDF()
    pdf.set_font("Helvetica", size=11)
    for _ in range(PAGES):
        pdf.add_page()
        for _ in range(6):
            text = " ".join(rng.choice(WORDS) for _ in range(24)).capitalize() + "."
            pdf.multi_cell(0, 6, text, new_x="LMARGIN", new_y="NEXT")
    pdf.output(str(path))


def test_long_pdf_reports_pages_as_it_embeds(tmp_path: Path) -> None:
    root = tmp_path / "policies"
    root.mkdir()
    _long_pdf(root / "long.pdf")
    settings = Settings.model_validate({"data_dir": str(tmp_path / "data"), "policies": {"root": str(root)},
                                        "embedding": {"provider": "fake"},
                                        "chunking": {"max_tokens": 64, "overlap_tokens": 8}})
    rec = Recorder()
    Indexer(settings, Store(settings.data_dir), FakeEmbedder).reconcile(progress=rec)
    pages = [p for _, p, _ in rec.page_calls]
    assert len(pages) >= 3 and pages == sorted(pages) and pages[-1] == PAGES
    assert {(f, total) for f, _, total in rec.page_calls} == {("long.pdf", PAGES)}


def test_bar_moves_inside_a_file_and_names_it() -> None:
    buf = io.StringIO()
    with RichProgress(console=Console(file=buf, force_terminal=True, width=120)) as progress:
        progress("long.pdf", 0, 2)
        progress.pages("long.pdf", 60, 120)
        task = progress._bar.tasks[0]
        assert task.completed == 0.5 and "long.pdf · page 60/120" in task.description
    assert progress.interrupt_note().startswith("0 of 2 files")
