// lab_moe_adapters.h — the lab's mixture-of-experts model as JavaScript sees it (dsml/moe_mlp.h, dsml/moe.h): its
// initial parameters and single-device run (the reference the page and the checkers compare a run with), and the
// two router kernels a rank calls on its micro-batch. Same rules as adapters.h: convert, call the core, convert
// back. Arrays are Float64Array, ROW-MAJOR, fresh copies. Contract: dsml.d.ts.
//
// `moe` below is {experts, topK, capacityFactor, every?} (every: every every-th block is MoE, default 2).
// Tensors come in parameter_tensors(MoeMlpParams) order: per block, dense W_in (F × D), W_out (D × F); MoE router
// (E × D), then each expert's W_in, W_out.
#pragma once

#include <emscripten/val.h>

namespace dsml::bindings {

using emscripten::val;

// moeMlpInit({model, moe, seed}) → [Float64Array …] = init_moe_mlp(model with moe, seed)
val moe_mlp_init(const val& request);

// trainSingleMoe({model, moe, groups, optimizer, batch, steps, seed}) → {losses: Float64Array(steps),
//   params: [Float64Array …], load: [{block, wanted[], kept[], dropped}] (the last step, per MoE block)}
//   = train_moe_mlp with `groups` token groups (the lab's dp·m)
val train_single_moe(const val& request);

// moeRoute(x, router, rows, width, topK, capacityFactor) → {probs (rows × E), expert, gate, slot (rows·k each,
//   token-major; slot −1 = dropped), capacity} = moe_route of one token group, E = router.length / width
val moe_route(const val& x, const val& router, double rows, double width, double top_k, double capacity_factor);

// moeRouterBackward(probs, expert, dGate, rows, topK) → dLogits (rows × E) = moe_router_backward: the gate
// gradients (rows·k, 0 for a dropped choice) through the gating and the softmax
val moe_router_backward(const val& probs, const val& expert, const val& d_gate, double rows, double top_k);

}  // namespace dsml::bindings
