"""Rerankers: the shared re-scoring step, the offline reranker, the cross-encoder path with a tiny
locally built model, and the visible fallback when the cross-encoder cannot be loaded."""

from __future__ import annotations

import hashlib
import logging
from pathlib import Path

import pytest

from core.calibration import load_calibration
from core.config import RerankSettings, Settings
from core.embedder import FakeEmbedder
from core.rerank import FakeReranker, OfflineReranker, PassthroughReranker, make_reranker, rescore
from core.rerank.base import sigmoid
from core.rerank.offline import WEIGHTS, bm25_scores, keyword_coverage, sentences, unit_coverage
from core.types import Chunk, ScoredChunk

TEXTS = [
    "The room rent for Plan A is capped at 1% of the sum insured per day.",
    "A grace period of thirty days is allowed for premium payment after the due date.",
    "Maternity expenses are covered after 24 months of continuous coverage.",
    "Cataract surgery has a two year waiting period. Ayush treatment is covered.",
]


def cand(text: str, i: int, score: float = 0.5) -> ScoredChunk:
    h = hashlib.sha256(text.encode()).hexdigest()
    chunk = Chunk(chunk_id=f"c{i}", path="policy.pdf", text=text, page=i + 1, page_end=i + 1,
                  section="", ordinal=i, text_hash=h)
    return ScoredChunk(chunk=chunk, score=score, scores={"fused": score})


def cands() -> list[ScoredChunk]:
    return [cand(t, i, 0.9 - 0.1 * i) for i, t in enumerate(TEXTS)]


def ids(chunks: list[ScoredChunk]) -> list[str]:
    return [c.chunk.chunk_id for c in chunks]


# --- rescore ---------------------------------------------------------------------------------------

def test_rescore_sorts_by_score_and_keeps_top() -> None:
    out = rescore(cands(), [0.1, 0.7, 0.3, 0.5], keep=2)
    assert ids(out) == ["c1", "c3"]


def test_rescore_breaks_ties_by_input_order() -> None:
    assert ids(rescore(cands(), [0.5, 0.5, 0.5, 0.5], keep=4)) == ["c0", "c1", "c2", "c3"]


def test_rescore_keeps_earlier_stage_scores_and_adds_rerank() -> None:
    out = rescore(cands(), [0.2, 0.1, 0.0, 0.0], keep=1, components={"x": [1.0, 2.0, 3.0, 4.0]})
    assert out[0].scores == {"fused": 0.9, "retrieval": 0.9, "x": 1.0, "rerank": 0.2}


def test_rescore_clips_scores_to_unit_range() -> None:
    out = rescore(cands()[:2], [1.7, -0.3], keep=2)
    assert [c.score for c in out] == [1.0, 0.0]


def test_rescore_rejects_score_count_mismatch() -> None:
    with pytest.raises(ValueError):
        rescore(cands(), [0.1], keep=2)


def test_sigmoid_maps_extreme_logits_without_overflow() -> None:
    assert (sigmoid(-800.0), sigmoid(0.0), sigmoid(800.0)) == (0.0, 0.5, 1.0)


# --- fake and passthrough --------------------------------------------------------------------------

def test_fake_reranker_prefers_chunk_sharing_question_words() -> None:
    fake = FakeReranker()
    out = fake.rerank("grace period premium payment", cands(), keep=1)
    assert ids(out) == ["c1"] and fake.calls == [("grace period premium payment", 4, 1)]


def test_passthrough_keeps_retrieval_order_and_scores() -> None:
    out = PassthroughReranker().rerank("q", cands(), keep=2)
    assert ids(out) == ["c0", "c1"] and out[0].score == pytest.approx(0.9)


# --- offline ---------------------------------------------------------------------------------------

def test_sentences_split_at_sentence_ends_and_drop_fragments() -> None:
    text = "Cataract surgery has a waiting period. Ok. Ayush treatment is covered fully."
    assert sentences(text) == ["Cataract surgery has a waiting period.", "Ayush treatment is covered fully."]


def test_sentences_give_each_table_row_its_header() -> None:
    table = ("| Benefit | Plan A | Plan B |\n|---|---|---|\n"
             "| Hospital cash | 500 | 1,000 |\n| Room rent | 1% | SI |")
    assert sentences(table) == ["| Benefit | Plan A | Plan B |\n| Hospital cash | 500 | 1,000 |",
                                "| Benefit | Plan A | Plan B |\n| Room rent | 1% | SI |"]


def test_sentences_join_a_wrapped_table_row_to_its_row() -> None:
    table = "| Item | Limit |\n| Air ambulance | up to |\n|  | 150 km per trip |"
    assert sentences(table) == ["| Item | Limit |\n| Air ambulance | up to |\n|  | 150 km per trip |"]


def test_keyword_coverage_weights_rare_terms_higher() -> None:
    cov = keyword_coverage("maternity plan", ["plan maternity", "plan a", "plan b"])
    assert cov[0] == pytest.approx(1.0) and 0.0 < cov[1] < 0.5 and cov[1] == cov[2]


def test_offline_reranker_ranks_the_answering_chunk_first() -> None:
    out = OfflineReranker(FakeEmbedder()).rerank("What is the grace period for premium payment?", cands(), 2)
    assert ids(out)[0] == "c1" and all(0.0 <= c.score <= 1.0 for c in out)


def test_offline_reranker_score_is_the_platt_scaled_weighted_sum_of_its_features() -> None:
    out = OfflineReranker(FakeEmbedder()).rerank("maternity coverage", cands(), 1)
    s = out[0].scores
    assert s["rerank_raw"] == pytest.approx(sum(w * s[k] for k, w in WEIGHTS.items()))
    platt = load_calibration().reranker
    assert platt is not None, "core/calibration.json has no reranker scaling: run policybot eval --calibrate"
    assert s["rerank"] == pytest.approx(platt.probability({"raw": s["rerank_raw"]}))


def test_offline_reranker_uses_retrieval_cosine_without_embedding() -> None:
    emb = FakeEmbedder()
    pool = [ScoredChunk(c.chunk, c.score, {**c.scores, "vector": 0.3}) for c in cands()]
    out = OfflineReranker(emb).rerank("room rent", pool, 2)
    assert emb.calls == [] and out[0].scores["rerank_vec"] == pytest.approx(0.3)


def test_offline_reranker_caches_passage_embeddings_when_cosine_is_missing() -> None:
    emb = FakeEmbedder()
    rr = OfflineReranker(emb)
    rr.rerank("room rent", cands(), 2)
    rr.rerank("cataract waiting period", cands(), 2)
    assert emb.calls[2:] == [1]  # first rerank: question (query prompt), then passages; second: question only


def test_offline_reranker_prefers_the_closest_paraphrase_over_chance_word_overlap() -> None:
    overlap = cand("Submit the claim form with the claim number to the claims desk.", 0, 0.9)
    paraphrase = cand("Report concerns anonymously through the ethics hotline.", 1, 0.6)
    pool = [ScoredChunk(overlap.chunk, overlap.score, {**overlap.scores, "vector": 0.30}),
            ScoredChunk(paraphrase.chunk, paraphrase.score, {**paraphrase.scores, "vector": 0.45})]
    out = OfflineReranker(FakeEmbedder()).rerank("which number do I call to tip off a claim fraud?", pool, 2)
    assert ids(out) == ["c1", "c0"] and out[1].scores["rerank_bm25"] > out[0].scores["rerank_bm25"]


def test_offline_reranker_weights_are_non_negative_and_sum_to_one() -> None:
    assert all(w >= 0 for w in WEIGHTS.values()) and sum(WEIGHTS.values()) == pytest.approx(1.0)


def test_offline_reranker_prefers_chunk_with_exact_plan_term() -> None:
    pool = [cand("Room rent is capped at 2% of the sum insured for Plan B.", 0),
            cand("Room rent is capped at 1% of the sum insured for Plan A.", 1)]
    out = OfflineReranker(FakeEmbedder()).rerank("room rent limit for Plan A", pool, 1)
    assert ids(out) == ["c1"] and out[0].scores["rerank_exact"] == pytest.approx(1.0)


def test_bm25_scores_are_scaled_to_the_best_candidate() -> None:
    got = bm25_scores("cataract waiting period", TEXTS)
    assert max(got) == pytest.approx(1.0) and got.index(1.0) == 3 and got[0] == 0.0


def test_unit_coverage_takes_the_best_sentence_of_a_passage() -> None:
    passage = "Ayush treatment is covered in full. Cataract surgery waiting period applies."
    got = unit_coverage("cataract surgery ayush", [passage, "unrelated text about rent here"])
    assert 0.5 < got[0] < 1.0 and got[1] == 0.0


def test_offline_reranker_on_no_candidates_returns_empty() -> None:
    assert OfflineReranker(FakeEmbedder()).rerank("anything", [], 5) == []


# --- cross-encoder with a tiny model built here -----------------------------------------------------

VOCAB = ["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]", *sorted({w for t in TEXTS for w in
         "".join(ch if ch.isalnum() else " " for ch in t.lower()).split()} | {"what", "grace", "is"})]


def build_tiny_cross_encoder(path: Path, num_labels: int = 1) -> Path:
    """A 2-layer BERT sequence classifier with a WordPiece tokenizer over VOCAB, saved to ``path``."""
    import torch
    from tokenizers import Tokenizer, models, normalizers, pre_tokenizers, processors
    from transformers import BertConfig, BertForSequenceClassification, PreTrainedTokenizerFast

    tok = Tokenizer(models.WordPiece({w: i for i, w in enumerate(VOCAB)}, unk_token="[UNK]"))
    tok.normalizer = normalizers.BertNormalizer(lowercase=True)
    tok.pre_tokenizer = pre_tokenizers.BertPreTokenizer()
    tok.post_processor = processors.TemplateProcessing(
        single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1",
        special_tokens=[("[CLS]", 2), ("[SEP]", 3)])
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="[UNK]", pad_token="[PAD]",
                                   cls_token="[CLS]", sep_token="[SEP]", mask_token="[MASK]",
                                   model_max_length=128)
    torch.manual_seed(0)
    cfg = BertConfig(vocab_size=len(VOCAB), hidden_size=32, num_hidden_layers=2, num_attention_heads=2,
                     intermediate_size=64, max_position_embeddings=128, initializer_range=0.5)
    cfg.num_labels = num_labels
    BertForSequenceClassification(cfg).save_pretrained(path)
    fast.save_pretrained(path)
    return path


@pytest.fixture(scope="module")
def tiny_model(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return build_tiny_cross_encoder(tmp_path_factory.mktemp("tiny-ce"))


def ce_settings(model: Path | str, **kw: object) -> RerankSettings:
    """The cross-encoder asked for explicitly (the default, ``auto``, never warns: see below)."""
    return RerankSettings(**{"provider": "cross-encoder", "model": str(model), "max_length": 64, **kw})


def test_cross_encoder_returns_keep_results_in_unit_range(tiny_model: Path) -> None:
    from core.rerank.cross_encoder import CrossEncoderReranker

    out = CrossEncoderReranker(ce_settings(tiny_model)).rerank("what is the grace period", cands(), 3)
    assert len(out) == 3 and all(0.0 < c.score < 1.0 for c in out)


def test_cross_encoder_score_is_sigmoid_of_logit_sorted_descending(tiny_model: Path) -> None:
    from core.rerank.cross_encoder import CrossEncoderReranker

    out = CrossEncoderReranker(ce_settings(tiny_model, dtype="float32")).rerank("room rent", cands(), 4)
    assert [c.score for c in out] == pytest.approx([sigmoid(c.scores["rerank_logit"]) for c in out])
    assert [c.score for c in out] == sorted((c.score for c in out), reverse=True)
    assert len({round(c.score, 6) for c in out}) > 1  # the tiny model does discriminate


def test_cross_encoder_ordering_is_deterministic_across_loads(tiny_model: Path) -> None:
    from core.rerank.cross_encoder import CrossEncoderReranker

    first = CrossEncoderReranker(ce_settings(tiny_model)).rerank("maternity coverage months", cands(), 4)
    second = CrossEncoderReranker(ce_settings(tiny_model)).rerank("maternity coverage months", cands(), 4)
    assert ids(first) == ids(second)


def test_make_reranker_loads_cross_encoder_by_path_without_fallback(tiny_model: Path) -> None:
    rr = make_reranker(Settings(rerank=ce_settings(tiny_model)), FakeEmbedder())
    assert rr.name == f"cross-encoder:{tiny_model}" and rr.fallback_reason is None


def test_missing_model_falls_back_to_offline_with_visible_reason(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    missing = tmp_path / "no-such-model"
    with caplog.at_level(logging.WARNING, logger="core.rerank.factory"):
        rr = make_reranker(Settings(rerank=ce_settings(missing)), FakeEmbedder())
    assert isinstance(rr, OfflineReranker)
    assert rr.fallback_reason is not None and str(missing) in rr.fallback_reason
    assert "reranker fallback" in caplog.text


def test_model_with_two_labels_is_refused_and_falls_back(tmp_path: Path) -> None:
    two = build_tiny_cross_encoder(tmp_path / "two-labels", num_labels=2)
    rr = make_reranker(Settings(rerank=ce_settings(two)), FakeEmbedder())
    assert rr.fallback_reason is not None and "2 output labels" in rr.fallback_reason


@pytest.mark.parametrize(("kw", "kind"), [({"provider": "offline"}, OfflineReranker),
                                          ({"provider": "fake"}, FakeReranker),
                                          ({"enabled": False}, PassthroughReranker)])
def test_factory_picks_reranker_from_config(kw: dict[str, object], kind: type) -> None:
    rr = make_reranker(Settings(rerank=RerankSettings(**kw)), FakeEmbedder())
    assert isinstance(rr, kind) and rr.fallback_reason is None


def test_make_reranker_accepts_the_rerank_section_alone() -> None:
    assert isinstance(make_reranker(RerankSettings(provider="offline"), FakeEmbedder()), OfflineReranker)


def test_predict_reranker_reports_fallback_for_uncached_model(tmp_path: Path) -> None:
    from core.rerank import predict_reranker

    got = predict_reranker(ce_settings(tmp_path / "absent"))
    assert got["fallback_reason"] is not None and "offline reranker" in got["fallback_reason"]


def test_predict_reranker_sees_a_local_model_folder(tiny_model: Path) -> None:
    from core.rerank import predict_reranker

    assert predict_reranker(ce_settings(tiny_model))["fallback_reason"] is None


def test_auto_uses_the_offline_reranker_quietly_without_local_weights(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger="core.rerank.factory"):
        rr = make_reranker(Settings(rerank=RerankSettings(model=str(tmp_path / "absent"))), FakeEmbedder())
    assert isinstance(rr, OfflineReranker) and rr.fallback_reason is None
    assert [r.levelname for r in caplog.records] == ["INFO"] and "offline" in caplog.text


def test_auto_uses_the_cross_encoder_when_its_weights_are_here(tiny_model: Path) -> None:
    rr = make_reranker(Settings(rerank=RerankSettings(model=str(tiny_model), max_length=64)), FakeEmbedder())
    assert rr.name == f"cross-encoder:{tiny_model}"


def test_offline_reranker_interpolates_retrievals_own_score() -> None:
    pool = [cand("Lost access badges are replaced at the reception desk.", 0, 0.8),
            cand("Parking permits are issued by the facilities team.", 1, 0.2)]
    out = {c.chunk.chunk_id: c.scores for c in OfflineReranker(FakeEmbedder()).rerank(
        "where do I get a new pass after misplacing mine?", pool, 2)}
    assert out["c0"]["rerank_fused"] == pytest.approx(1.0)
    assert out["c1"]["rerank_fused"] == pytest.approx(0.25)


def test_a_passages_units_are_split_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The units of a text are memoised: a second rerank of the same passage does not split and count
    its words again (the same units come back, as a fresh list the caller may change)."""
    import core.rerank.offline as offline

    text = "Acme staff may carry over five days of leave. Globex staff may not. Initech: ask HR first."
    first = sentences(text)
    monkeypatch.setattr(offline, "words", lambda _: (_ for _ in ()).throw(AssertionError("split again")))
    again = sentences(text)
    assert again == first and again is not first
    again.append("changed")
    assert sentences(text) == first
