// Activation memory: what backward needs kept from forward, for a transformer layer (Korthikanti et al. 2022)
// and for the course's MLP block (dsml/mlp.h).
//
// Where the transformer's 34 + 5·a·s/h bytes per s·b·h come from (16-bit values, 1-byte dropout masks):
//   attention   11·sbh + 5·a·s²·b: QKV input 2, Q and K 4, softmax output 2·a·s²·b, its dropout mask
//               a·s²·b, dropped scores 2·a·s²·b, V 2, projection input 2, its dropout mask 1
//   MLP         19·sbh: first linear's input 2, GeLU input 8 (4h wide), second linear's input 8, dropout mask 1
//   layer norms 4·sbh: two inputs of 2
// Tensor parallelism splits the attention and MLP internals (24·sbh + 5·a·s²·b) t ways but leaves 10·sbh
// (layer norms, dropouts, the linears' inputs) replicated; sequence parallelism splits those along s too.
#include <string>

#include "dsml/error.h"
#include "dsml/memory_accountant.h"

namespace dsml {

double transformer_layer_activation_bytes(double sequence, double micro_batch, double hidden, double heads,
                                          int tensor_parallel, bool sequence_parallel,
                                          Recomputation recomputation) {
  require_positive("sequence length", sequence);
  require_positive("micro-batch size", micro_batch);
  require_positive("hidden size", hidden);
  require_positive("attention heads", heads);
  if (tensor_parallel < 1) {
    throw Error("tensor-parallel size must be >= 1, got " + std::to_string(tensor_parallel));
  }
  const double sbh = sequence * micro_batch * hidden;
  const double t = tensor_parallel;
  if (recomputation == Recomputation::kFull) {
    // Only the layer's input (2 bytes per value) survives; forward is rerun during backward.
    return 2.0 * sbh / (sequence_parallel ? t : 1.0);
  }
  // The attention-scores term, 5·a·s/h per s·b·h (= 5·a·s²·b bytes); selective recomputation drops it.
  const double scores = recomputation == Recomputation::kSelective ? 0.0 : 5.0 * heads * sequence / hidden;
  const double replicated = sequence_parallel ? 10.0 / t : 10.0;
  return sbh * (replicated + (24.0 + scores) / t);
}

double mlp_block_activation_values(double batch, double width, double hidden, bool keep_pre_activations) {
  require_positive("batch size", batch);
  require_positive("block width D", width);
  require_positive("hidden width F", hidden);
  // x (B, D), plus the pre-activation H (B, F) unless backward recomputes it from x.
  return batch * (width + (keep_pre_activations ? hidden : 0.0));
}

double mlp_stack_activation_bytes(double batch, double width, double hidden, int blocks, double element_bytes,
                                  bool keep_pre_activations) {
  if (blocks < 1) throw Error("an MLP stack needs at least 1 block, got " + std::to_string(blocks));
  require_positive("element bytes", element_bytes);
  return blocks * mlp_block_activation_values(batch, width, hidden, keep_pre_activations) * element_bytes;
}

Recomputation parse_recomputation(const std::string& name) {
  if (name == "none") return Recomputation::kNone;
  if (name == "selective") return Recomputation::kSelective;
  if (name == "full") return Recomputation::kFull;
  throw Error("recomputation must be \"none\", \"selective\" or \"full\", got \"" + name + "\"");
}

const char* recomputation_name(Recomputation recomputation) {
  switch (recomputation) {
    case Recomputation::kNone: return "none";
    case Recomputation::kSelective: return "selective";
    case Recomputation::kFull: return "full";
  }
  return "none";
}

}  // namespace dsml
