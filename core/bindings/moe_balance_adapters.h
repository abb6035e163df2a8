// moe_balance_adapters.h — Week 5's load-balancing loss for JavaScript (dsml/moe.h, dsml/moe_mlp.h). Same rules as
// adapters.h: plain values in, plain values out.
#pragma once

#include <emscripten/val.h>

namespace dsml::bindings {

using emscripten::val;

// trainMoeBalanced({model, moe: {experts, topK, capacityFactor, every?, balance}, groups?, optimizer, batch, steps,
//   seed?}) → {losses, balanceLosses (Float64Array per step), dropped (Array per step, summed over MoE blocks),
//   assignments (batch·k·MoE blocks: what a step routes), load: [{block, wanted, kept, dropped}] of the last step}
//                                                                                         = train_moe_mlp
// balance is Switch's α (0 = no load-balancing loss).
val train_moe_balanced(const val& request);

// moeBalanceLoss(alpha, f, P) → α·E·Σ f_i·P_i (one token group; f and P one entry per expert) = switch_balance_loss
double moe_balance_loss(double alpha, const val& f, const val& P);

}  // namespace dsml::bindings
