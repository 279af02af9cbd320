"""Check the section labels citations would show, over every indexable file of ../shared/corpus.

A section label (the last part of a block's section path) is *suspicious* when it is

- a **table cell**: the same text is a cell of a table of that document;
- a **list item**: it opens with a list marker ("a)", "(ii)", "iv.", a bullet) or is a numbered line
  whose title starts in lower case ("7.5 dioptres");
- **furniture**: the same heading line starts sections on at least :data:`FURNITURE_PAGES` pages
  (a running header taken for a heading);
- a **continuation**: the line before it (last line of the previous block) runs on into it
  ("…such as IVF, ZIFT, GIFT," → "ICSI").

    .venv/bin/python tools/section_labels.py               # extract the corpus and check it
    .venv/bin/python tools/section_labels.py --dump F      # also write the blocks as JSON lines
    .venv/bin/python tools/section_labels.py --load F      # check blocks written by --dump

Prints each suspicious label with its document, kind and the pages cited under it, then the count.
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from core.config import Settings  # noqa: E402
from core.errors import ExtractionError  # noqa: E402
from indexer.extract import extract_file  # noqa: E402
from indexer.extract.headings import runs_on  # noqa: E402
from indexer.patterns import is_indexable  # noqa: E402

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus"
FURNITURE_PAGES = 3
_LIST = re.compile(r"^(?:\(?[a-z]{1,4}[.)]|\([ivx]{1,5}\)|[•·▪◦●■\-–*])\s")
_LOWER_NUMBERED = re.compile(r"^\d{1,2}(?:\.\d{1,2})*\.?\s+[a-z]")

Doc = dict[str, object]


def dump_corpus() -> list[Doc]:
    """Every indexable corpus file's blocks as JSON-able dicts (failed files without blocks)."""
    settings = Settings()
    docs: list[Doc] = []
    for path in sorted(CORPUS.rglob("*")):
        if not path.is_file() or not is_indexable(path.relative_to(CORPUS).as_posix(), settings):
            continue
        try:
            doc = extract_file(path, CORPUS, settings)
        except ExtractionError as exc:
            docs.append({"path": path.relative_to(CORPUS).as_posix(), "error": str(exc)})
            continue
        docs.append({"path": doc.path, "blocks": [{"page": b.page, "section": b.section, "kind": b.kind,
                                                    "text": b.text} for b in doc.blocks]})
    return docs


def _cells(blocks: list[dict[str, object]]) -> set[str]:
    cells: set[str] = set()
    for b in blocks:
        if b["kind"] == "table":
            for line in str(b["text"]).split("\n")[2:]:
                cells.update(c.strip() for c in line.strip("|").split(" | ") if c.strip())
    return cells


def suspicious(doc: Doc) -> dict[str, tuple[str, list[int]]]:
    """The document's suspicious labels: label → (kind, pages of the blocks cited under it)."""
    blocks = doc.get("blocks") or []
    assert isinstance(blocks, list)
    cells = _cells(blocks)
    heading_pages: dict[str, set[int]] = defaultdict(set)
    run_on: set[str] = set()
    for prev, b in zip([None, *blocks], blocks, strict=False):
        if b["kind"] == "heading":
            heading_pages[str(b["text"])].add(int(b["page"] or 0))
            if prev is not None and prev["kind"] != "heading" and runs_on(str(prev["text"]).split("\n")[-1]):
                run_on.add(str(b["text"]))
    found: dict[str, tuple[str, list[int]]] = {}
    for b in blocks:
        label = str(b["section"]).split(" > ")[-1]
        if not label or b["kind"] == "heading":
            continue
        listed = _LIST.match(label) or _LOWER_NUMBERED.match(label)
        repeated = len(heading_pages[label]) >= FURNITURE_PAGES
        kind = ("table cell" if label in cells else "list item" if listed else "furniture" if repeated
                else "continuation" if label in run_on else "")
        if kind:
            pages = found.get(label, (kind, []))[1]
            found[label] = (kind, sorted(set(pages) | {int(b["page"] or 0)}))
    return found


def main() -> None:
    """Extract (or load) the corpus, print the suspicious labels and their count."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--dump", type=Path, help="write the extracted blocks here (JSON lines)")
    ap.add_argument("--load", type=Path, help="check blocks written earlier by --dump")
    args = ap.parse_args()
    if args.load:
        docs = [json.loads(line) for line in args.load.read_text(encoding="utf-8").splitlines() if line]
    else:
        docs = dump_corpus()
    if args.dump:
        lines = (json.dumps(d, ensure_ascii=False) + "\n" for d in docs)
        args.dump.write_text("".join(lines), encoding="utf-8")
    total = 0
    for doc in docs:
        for label, (kind, pages) in sorted(suspicious(doc).items()):
            total += 1
            print(f"{doc['path']}: {kind}: {label!r} (pages {pages[0]}-{pages[-1]}, {len(pages)} pages)")
    labels = sum(len({str(b['section']) for b in d.get('blocks') or []}) for d in docs)  # type: ignore[union-attr]
    print(f"suspicious section labels: {total} (of {labels} section paths in {len(docs)} files)")


if __name__ == "__main__":
    main()
