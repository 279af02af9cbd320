"""Plain dataclasses that flow through the pipeline, in the order data flows:

file → :class:`Block` (extraction) → :class:`Chunk` (chunking) → stored with a vector →
:class:`ScoredChunk` (retrieval / rerank) → :class:`Answer` with :class:`Citation` (answering).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

BlockKind = Literal["text", "table", "heading", "note", "form_field", "ocr"]
"""What a block holds: body text, a markdown table, a heading line, a footnote or endnote, a filled
form field ("label: value"), or text read by OCR from a scanned page or an image."""


@dataclass(frozen=True)
class Block:
    """One contiguous piece of a document, in reading order.

    Attributes:
        path: file path relative to the policy root, POSIX separators.
        text: normalised text (NFKC, de-hyphenated). Tables are GitHub-markdown tables.
        page: 1-based physical page for PDFs; ``None`` for DOCX/MD/TXT.
        section: heading path, e.g. ``"Benefits > Maternity"``; ``""`` when unknown.
        kind: see :data:`BlockKind`.
        page_end: last page the block covers when it runs over a page break (a sentence continued
            on the next page), else ``None``.
    """

    path: str
    text: str
    page: int | None = None
    section: str = ""
    kind: BlockKind = "text"
    page_end: int | None = None


@dataclass
class ExtractionReport:
    """What the extraction of one file saw and left out (stored with its documents row, shown by
    ``policybot status --json`` and ``policybot inspect``).

    Attributes:
        ocr_pages: 1-based pages whose text came from OCR.
        needs_ocr_pages: 1-based pages whose text layer was unusable and could not be read (OCR off,
            tesseract missing, or OCR output that is not words); their text is not indexed.
        tables: tables read (a table split into parts counts once).
        notes: footnotes and endnotes read.
        form_fields: filled form fields read (PDF AcroForm).
        not_read: embedded content that was not read, one line each (``"altChunk part1.rtf
            (application/rtf)"``, ``"embedded object (OLE)"``).
        hidden_removed: pieces of text a reader does not see that were left out (hidden runs,
            HTML comments, front matter).
        furniture_lines: running header/footer and page-number lines removed (PDF).
        encoding: how a text file was decoded (``"utf-8"``, ``"utf-16 (BOM)"``, ``"cp1252"``);
            ``""`` for other formats.
    """

    ocr_pages: list[int] = field(default_factory=list)
    needs_ocr_pages: list[int] = field(default_factory=list)
    tables: int = 0
    notes: int = 0
    form_fields: int = 0
    not_read: list[str] = field(default_factory=list)
    hidden_removed: int = 0
    furniture_lines: int = 0
    encoding: str = ""

    @property
    def partial(self) -> bool:
        """True when part of the file was not read (pages needing OCR, embedded content)."""
        return bool(self.needs_ocr_pages or self.not_read)

    def to_json(self) -> dict[str, object]:
        """The stable JSON shape: every attribute plus ``partial``."""
        return {"ocr_pages": list(self.ocr_pages), "needs_ocr_pages": list(self.needs_ocr_pages),
                "tables": self.tables, "notes": self.notes, "form_fields": self.form_fields,
                "not_read": list(self.not_read), "hidden_removed": self.hidden_removed,
                "furniture_lines": self.furniture_lines, "encoding": self.encoding,
                "partial": self.partial}

    @classmethod
    def from_json(cls, data: dict[str, object]) -> ExtractionReport:
        """The report from :meth:`to_json` output (unknown keys ignored, missing ones default)."""
        names = {f for f in cls.__dataclass_fields__}
        return cls(**{k: v for k, v in data.items() if k in names})  # type: ignore[arg-type]


@dataclass(frozen=True)
class ExtractedDocument:
    """The result of extracting one file: its blocks in reading order and its page count (0 if none).

    ``needs_ocr_pages`` lists 1-based pages whose text layer was unusable (scanned or garbage) and
    that could not be OCR'd (OCR off or tesseract missing); their text is not in ``blocks``.
    """

    path: str
    blocks: list[Block]
    pages: int = 0
    warnings: list[str] = field(default_factory=list)
    needs_ocr_pages: list[int] = field(default_factory=list)
    report: ExtractionReport = field(default_factory=ExtractionReport)
    """What the extraction saw and left out; :func:`indexer.extract.extract_file` completes it."""
    metadata_title: str = ""
    """The title the file's metadata gives (PDF ``/Title``, DOCX core properties, Markdown front
    matter), as found; never quoted. Often stale or a file name: :func:`indexer.context.document_title`
    uses it only when the document's own words confirm it."""
    header_lines: list[str] = field(default_factory=list)
    """Running header/footer lines removed from the text as page furniture, most frequent first: kept
    as title hints only (a product named in the running header alone), never quoted or indexed."""


@dataclass(frozen=True)
class Chunk:
    """A retrieval unit: a token-bounded run of blocks from one file.

    Attributes:
        chunk_id: stable id, ``sha256(path, ordinal, text)`` prefix; unique within the index even
            when the same paragraph repeats in a file (the ordinal differs).
        path: file path relative to the policy root.
        text: chunk text, as quoted and cited (embedded and keyword-indexed after ``context``).
        page: first page the chunk covers (PDF), else ``None``.
        page_end: last page the chunk covers (PDF), else ``None``.
        section: heading path of the chunk's first block.
        ordinal: 0-based position of the chunk within its file.
        text_hash: sha256 hex of ``text`` (answer-cache staleness: the quoted text changed).
        context: what the chunk is about, put in front of ``text`` for embedding and the full-text
            index but never quoted: ``"<document title> — <section path joined by ' › '>"``
            (``chunking.contextual``; ``""`` when off or unknown). See :attr:`indexed_text`.
        kinds: the block kinds the chunk was cut from, in order (:data:`BlockKind`, headings left
            out); known when the chunk is made, not stored in the chunks table (the documents row's
            extraction report keeps them, by ordinal).
        page_breaks: ``(offset, page)``, in order of offset, wherever the text moves on to another
            page: the character offset in ``text`` where that page's text starts (so a quoted
            sentence is cited with its own page, :func:`page_at`), led by ``(0, page)`` when the
            text starts on another page than :attr:`page` (a heading from the foot of an earlier
            page); ``()`` for a one-page chunk or an index written before it.
    """

    chunk_id: str
    path: str
    text: str
    page: int | None
    page_end: int | None
    section: str
    ordinal: int
    text_hash: str
    context: str = ""
    kinds: tuple[str, ...] = ()
    page_breaks: tuple[tuple[int, int], ...] = ()

    @property
    def indexed_text(self) -> str:
        """What is embedded and full-text indexed: ``context``, a line break, then ``text`` (just
        ``text`` without context). Contextual retrieval: Anthropic, "Introducing Contextual Retrieval"
        (2024); the same idea as document-title fields in BM25F (Robertson et al., 2004)."""
        return f"{self.context}\n{self.text}" if self.context else self.text


def page_at(chunk: Chunk, offset: int) -> int | None:
    """The page of the character at ``offset`` in ``chunk.text``: the page of the last of
    ``chunk.page_breaks`` at or before ``offset``, else ``chunk.page`` (the text before the first
    break is on the chunk's page unless a break at offset 0 says otherwise: a heading from the foot
    of an earlier page, see :func:`indexer.chunker.make_chunk`). ``None`` when the chunk has no pages."""
    page = chunk.page
    for start, p in chunk.page_breaks:
        if start > offset:
            break
        page = p
    return page


@dataclass(frozen=True)
class ScoredChunk:
    """A chunk with its final score (higher is better) and the per-stage scores that produced it."""

    chunk: Chunk
    score: float
    scores: dict[str, float] = field(default_factory=dict)


@dataclass(frozen=True)
class Citation:
    """A source shown under an answer: file, page and section, the score, and the quoted chunk."""

    file: str
    page: int | None
    section: str
    score: float
    chunk_id: str = ""
    text_hash: str = ""
    page_end: int | None = None
    """Last page the quoted chunk covers (PDF); ``None`` when unknown or same as ``page``."""
    quote: str = ""
    """A short span of the cited chunk that supports the answer (``""`` when none was chosen)."""


@dataclass(frozen=True)
class Progress:
    """A step of answering, yielded by ``AnswerService.ask_stream`` before the text.

    ``step`` is ``"search"`` (``count`` = documents in scope), ``"read"`` (``count`` = passages
    retrieved) or ``"answer"`` (``count`` None: the provider is writing).
    """

    step: Literal["search", "read", "answer"]
    count: int | None = None


@dataclass(frozen=True)
class Turn:
    """One message of a conversation (thread history), oldest first."""

    role: Literal["user", "assistant"]
    text: str


@dataclass(frozen=True)
class StaleSource:
    """A cited document whose latest version failed to index: the answer quotes its previous version.

    ``changed_at`` is the new version's modification time (UNIX seconds); ``reason`` the failure.
    """

    file: str
    changed_at: float
    reason: str

    def to_json(self) -> dict[str, object]:
        """``{"file", "changed_at", "reason"}``."""
        return {"file": self.file, "changed_at": self.changed_at, "reason": self.reason}


@dataclass(frozen=True)
class Answer:
    """What the answer service returns for one question.

    ``found`` is False when the answer is a refusal ("could not find this in the policies") or a
    decline (unsafe request). ``provider`` names who produced the text (e.g. ``"extractive"``,
    ``"gemini:gemini-2.5-flash"``, ``"cache"``). ``timings_ms`` maps stage name to milliseconds.
    """

    answer: str
    citations: list[Citation]
    provider: str
    cached: bool = False
    found: bool = True
    timings_ms: dict[str, float] = field(default_factory=dict)
    details: dict[str, str] = field(default_factory=dict)
    retrieved: list[Citation] = field(default_factory=list)
    """The chunks retrieval handed to the answerer, best first (for eval's hit@k; not shown)."""
    stale_sources: list[StaleSource] = field(default_factory=list)
    """Cited documents whose latest version could not be read (the answer uses the previous one)."""

    answerability: float | None = None
    """Calibrated probability in [0, 1] that the policies answer the question (``None``: not assessed)."""
    answer_type: str = ""
    """The question's expected answer type (money, duration, phone, yes_no, …; ``""`` when unknown)."""
    signals: dict[str, float] = field(default_factory=dict)
    """The answerability inputs (eval and calibration; not shown)."""

    def to_json(self) -> dict[str, object]:
        """The CLI contract: ``{"answer", "citations": [{"file","page","section","score"}],
        "provider", "cached", "timings_ms"}`` plus extra keys (``found``, ``details``,
        ``stale_sources``: ``[{"file", "changed_at", "reason"}]``, ``answerability`` — a number in
        [0, 1] or null —, ``answer_type``)."""
        return {
            "answer": self.answer,
            "citations": [
                {"file": c.file, "page": c.page, "section": c.section, "score": round(c.score, 4)}
                for c in self.citations
            ],
            "provider": self.provider,
            "cached": self.cached,
            "timings_ms": {k: round(v, 1) for k, v in self.timings_ms.items()},
            "found": self.found,
            "details": dict(self.details),
            "stale_sources": [s.to_json() for s in self.stale_sources],
            "answerability": None if self.answerability is None else round(self.answerability, 4),
            "answer_type": self.answer_type,
        }
