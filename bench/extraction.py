"""Extraction throughput over ../shared/corpus: pages/s with pdf_tables=never vs auto, same run.

``never``: page text from PDFium only (pypdf on rotated pages); ``auto``: plus pdfplumber on the pages
whose content stream paints ≥ ``TABULAR_MIN_RULES`` rules (the default).

    .venv/bin/python bench/extraction.py [--modes never,auto]

Prints per-mode pages, seconds, pages/s, table pages sent to pdfplumber and table blocks, and the
auto/never time ratio. Broken files are counted as failures (they raise ExtractionError quickly).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import pypdf

from core.config import Settings
from core.errors import ExtractionError
from indexer.extract import extract_file
from indexer.extract.pdf_objects import TABULAR_MIN_RULES, count_rules
from indexer.patterns import is_indexable

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"


def files(settings: Settings) -> list[Path]:
    """Indexable corpus files, sorted."""
    return sorted(p for p in CORPUS.rglob("*")
                  if p.is_file() and is_indexable(p.relative_to(CORPUS).as_posix(), settings))


def tabular_pages(paths: list[Path]) -> int:
    """Pages the auto heuristic sends to pdfplumber."""
    n = 0
    for p in paths:
        if p.suffix.lower() != ".pdf":
            continue
        try:
            reader = pypdf.PdfReader(p)
            if reader.is_encrypted:
                reader.decrypt("")
            n += sum(count_rules(page) >= TABULAR_MIN_RULES for page in reader.pages)
        except Exception:  # broken files
            continue
    return n


def run(mode: str) -> tuple[int, float, int]:
    """Extract every file with ``extraction.pdf_tables = mode``; returns (pages, seconds, tables)."""
    settings = Settings.model_validate({"extraction": {"pdf_tables": mode}})
    pages = tables = 0
    t0 = time.perf_counter()
    for path in files(settings):
        try:
            doc = extract_file(path, CORPUS, settings)
        except ExtractionError:
            continue
        pages += doc.pages
        tables += sum(b.kind == "table" for b in doc.blocks)
    return pages, time.perf_counter() - t0, tables


def main() -> None:
    """Run the modes given on the command line and print the figures."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--modes", default="never,auto")
    modes = ap.parse_args().modes.split(",")
    print(f"corpus: {CORPUS}; pages sent to pdfplumber by auto: {tabular_pages(files(Settings()))}")
    seconds: dict[str, float] = {}
    for mode in modes:
        pages, secs, tables = run(mode)
        seconds[mode] = secs
        print(f"pdf_tables={mode:6s} pages={pages} seconds={secs:.1f} pages/s={pages / secs:.1f} "
              f"table_blocks={tables}")
    if "never" in seconds and "auto" in seconds:
        print(f"auto/never time ratio: {seconds['auto'] / seconds['never']:.2f}")


if __name__ == "__main__":
    main()
