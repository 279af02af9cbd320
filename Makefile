# policybot — `make run` and `make test` each set up .venv when missing, then act.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export HF_HUB_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1
export TOKENIZERS_PARALLELISM := false

.PHONY: run test lint typecheck unit bench eval clean system-deps

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)

# torch first, pinned to the CPU build on disk: an unpinned torch would pull GBs of CUDA wheels.
$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install -q --disable-pip-version-check torch==2.13.0
	$(BIN)/pip install -q --disable-pip-version-check -e '.[dev]'
	touch $(STAMP)

# OCR needs the tesseract binary and language packs (Debian packages; eng + deu for the corpus, osd for
# page orientation); legacy Word 97-2003 .doc files need antiword; English questions about German
# policies (and the reverse) are translated with the FreeDict dictionaries (dictd files under
# /usr/share/dictd, read directly: no dictd server). Skipped with a note when apt is unavailable.
SYSTEM_PACKAGES := tesseract-ocr tesseract-ocr-eng tesseract-ocr-deu tesseract-ocr-osd antiword \
	dict-freedict-eng-deu dict-freedict-deu-eng
system-deps:
	@{ command -v tesseract >/dev/null 2>&1 && command -v antiword >/dev/null 2>&1 && \
	   test -n "$$(tesseract --list-langs 2>/dev/null | grep -x osd)" && \
	   test -f /usr/share/dictd/freedict-eng-deu.index; } || { command -v apt-get >/dev/null 2>&1 && \
	  (apt-get update -qq && apt-get install -y -qq --no-install-recommends $(SYSTEM_PACKAGES) >/dev/null) \
	  || echo "note: tesseract/antiword/freedict not installed; scanned PDFs will be reported as needing OCR, .doc files as needing a converter, and questions are not translated for documents in another language"; }

# ARGS is passed on: make run ARGS="--switch-root" | ARGS="--http-port 3000"
run: $(STAMP) system-deps
	$(BIN)/policybot run $(ARGS)

lint: $(STAMP)
	$(BIN)/ruff check core indexer bot policybot tests bench

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/pytest -q --durations=25

test: system-deps lint typecheck unit

bench: $(STAMP)
	$(BIN)/python bench/indexing.py

# The full answer-quality eval over ../shared/corpus (indexes it into .policybot-eval first).
eval: $(STAMP)
	$(BIN)/policybot --data-dir .policybot-eval index ../shared/corpus
	$(BIN)/policybot --data-dir .policybot-eval eval ../shared/corpus/qa_dev.yaml --report docs/eval/qa_dev_offline.md

clean:
	rm -rf $(VENV) .policybot .policybot-shared .pytest_cache .mypy_cache .ruff_cache
