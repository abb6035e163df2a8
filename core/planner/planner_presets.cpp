// Planner presets as data: the models the course names. One row per preset; nothing here computes.
//
// Models (layers, hidden, heads, KV heads, FFN, gated, sequence, vocabulary, learned positions, tied embeddings):
//   gpt-*      Narayanan et al. 2021, Table 1 (V = 51,200, s = 2048; "All models use a vocabulary size of 51,200
//              and a sequence length of 2048"); the name is the paper's parameter count.
//   gpt3-*     Brown et al. 2020, Table 2.1 (V = 50,257 GPT-2 BPE, s = 2048). 1.3B and 13B are left out: their
//              published d_model is not a multiple of the head count (2048/24, 5140/40).
//   llama2-*   Touvron et al. 2023 (Llama 2), the released configs: SwiGLU FFN, RMSNorm, RoPE, V = 32,000,
//              s = 4096; 70B uses grouped-query attention with 8 KV heads.
//   llama3-*   Llama 3 herd of models (Dubey et al. 2024), Table 3: V = 128,256, s = 8192, 8 KV heads.
//   mixtral-8x7b  Jiang et al. 2024 ("Mixtral of Experts", Table 1): Mistral 7B's shape (32 layers, h 4096, 32 heads,
//              8 KV heads, SwiGLU FFN 14,336, V = 32,000, 32k context) with every FFN replaced by 8 experts, top-2
//              routing: Ψ ≈ 46.7 B, 12.9 B active per token (the paper's 47B and 13B).
//   mpt-*      MosaicML's MPT models as llm-foundry's benchmark tables ran them (scripts/train/yamls/pretrain/
//              mpt-*.yaml; MPTConfig's defaults at v0.3.0): GPT's shape — biases, LayerNorm, 4h GeLU FFN, multi-head
//              attention, learned positions, tied embeddings — with V = 50,368 and no dropout; the sequence is each
//              run's. Their NumParams column is this Ψ plus the final LayerNorm's 2h.
// Dropout: GPT rows keep Megatron's (Narayanan et al. 2021 train with it); Llama, Mixtral and MPT train without.
// GPUs and their kernel measurements: gpu_presets.cpp.
#include <string>
#include <vector>

#include "dsml/error.h"
#include "dsml/planner.h"

namespace dsml {
namespace {

PlannerModel gpt(const char* name, int layers, int hidden, int heads, int sequence, int vocabulary) {
  PlannerModel m;
  m.name = name;
  m.layers = layers;
  m.hidden = hidden;
  m.heads = heads;
  m.sequence = sequence;
  m.vocabulary = vocabulary;
  m.dropout = true;
  return m;  // MHA, 4h FFN with GeLU, learned positions, tied embeddings, dropout
}

PlannerModel mpt(const char* name, int layers, int hidden, int heads) {
  PlannerModel m = gpt(name, layers, hidden, heads, 2048, 50368);
  m.dropout = false;
  return m;
}

PlannerModel llama(const char* name, int layers, int hidden, int heads, int kv_heads, int ffn, int sequence,
                   int vocabulary) {
  PlannerModel m = gpt(name, layers, hidden, heads, sequence, vocabulary);
  m.kv_heads = kv_heads;
  m.ffn = ffn;
  m.gated_ffn = true;
  m.learned_positions = false;
  m.tied_embeddings = false;
  m.dropout = false;
  return m;
}

PlannerModel moe(PlannerModel m, const char* name, int experts, int top_k, int every) {
  m.name = name;
  m.experts = experts;
  m.top_k = top_k;
  m.moe_every = every;
  return m;
}

const std::vector<PlannerModel>& models() {
  static const std::vector<PlannerModel> table = {
      //  name          L    h      a    s     V
      gpt("gpt-1.7b", 24, 2304, 24, 2048, 51200),
      gpt("gpt-3.6b", 30, 3072, 32, 2048, 51200),
      gpt("gpt-7.5b", 36, 4096, 32, 2048, 51200),
      gpt("gpt-18.4b", 40, 6144, 48, 2048, 51200),
      gpt("gpt-39.1b", 48, 8192, 64, 2048, 51200),
      gpt("gpt-76.1b", 60, 10240, 80, 2048, 51200),
      gpt("gpt-145.6b", 80, 12288, 96, 2048, 51200),
      gpt("gpt-310.1b", 96, 16384, 128, 2048, 51200),
      gpt("gpt-529.6b", 105, 20480, 128, 2048, 51200),
      gpt("gpt-1t", 128, 25600, 160, 2048, 51200),
      gpt("gpt3-125m", 12, 768, 12, 2048, 50257),
      gpt("gpt3-350m", 24, 1024, 16, 2048, 50257),
      gpt("gpt3-760m", 24, 1536, 16, 2048, 50257),
      gpt("gpt3-2.7b", 32, 2560, 32, 2048, 50257),
      gpt("gpt3-6.7b", 32, 4096, 32, 2048, 50257),
      gpt("gpt3-175b", 96, 12288, 96, 2048, 50257),
      gpt("opt-30b", 48, 7168, 56, 2048, 50272),  // Zhang et al. 2022 (OPT), Table 1: V 50,272, learned positions
      //    name          L    h      a   kv   FFN    s     V
      llama("llama2-7b", 32, 4096, 32, 32, 11008, 4096, 32000),
      llama("llama2-13b", 40, 5120, 40, 40, 13824, 4096, 32000),
      llama("llama2-70b", 80, 8192, 64, 8, 28672, 4096, 32000),
      llama("llama3-8b", 32, 4096, 32, 8, 14336, 8192, 128256),
      llama("llama3-70b", 80, 8192, 64, 8, 28672, 8192, 128256),
      llama("llama3-405b", 126, 16384, 128, 8, 53248, 8192, 128256),
      //  Mistral 7B's shape                                               name          E  k  every
      moe(llama("", 32, 4096, 32, 8, 14336, 32768, 32000), "mixtral-8x7b", 8, 2, 1),
      //  name         L     h     a
      mpt("mpt-125m", 12, 768, 12),
      mpt("mpt-350m", 24, 1024, 16),
      mpt("mpt-760m", 24, 1536, 12),
      mpt("mpt-1b", 24, 2048, 16),
      mpt("mpt-3b", 32, 2560, 20),
      mpt("mpt-7b", 32, 4096, 32),
      mpt("mpt-13b", 40, 5120, 40),
      mpt("mpt-30b", 48, 7168, 56),
      mpt("mpt-70b", 80, 8192, 64),
  };
  return table;
}

template <class T>
std::vector<std::string> names_of(const std::vector<T>& rows) {
  std::vector<std::string> out;
  for (const T& r : rows) out.push_back(r.name);
  return out;
}

// The row called `name`, or an error listing every row of the table (`kind`: "model", "GPU").
template <class T>
T named(const std::vector<T>& rows, const std::string& name, const char* kind) {
  for (const T& r : rows)
    if (r.name == name) return r;
  std::string known;
  for (const std::string& n : names_of(rows)) known += (known.empty() ? "" : ", ") + n;
  throw Error(std::string("unknown ") + kind + " preset \"" + name + "\"; choose one of: " + known);
}

}  // namespace

PlannerModel planner_model_preset(const std::string& name) { return named(models(), name, "model"); }
std::vector<std::string> planner_model_names() { return names_of(models()); }
PlannerPresets planner_presets() { return {models(), gpu_presets(), narayanan_table1()}; }

}  // namespace dsml
