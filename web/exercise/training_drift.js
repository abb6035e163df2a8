// training_drift.js — why a distributed run's parameters differ from single-device training (Week 3's trainer, the
// lab), read from how they moved: the tensor that differs most, how far it moved from the initial parameters against
// how far the reference moved — a run that moved k× as far in the same direction scaled its gradient by k (summed
// over dp replicas instead of averaged: k = dp) — and whether step 0's loss already differs (then the forward pass
// is wrong, not the gradient or its sync). `ref` is core.trainSingle's run on the same batches; the model is a stack
// of MLP blocks, two weight tensors each.
import { lossesFromProgress, maxRelativeDifference } from "./compare_training.js";

export const tensorName = (i) => `block ${Math.floor(i / 2)}'s ${i % 2 ? "W_out" : "W_in"}`;

export function trainingDrift(run, params, config, core, ref) {
  const init = core.mlpInit({ ...config.model, seed: config.seed + 1 });
  const per = params.map((p, i) => maxRelativeDifference([p], [ref.params[i]]));
  const tensor = per.indexOf(Math.max(...per));
  const moved = (a) => Math.hypot(...a.map((v, e) => v - init[tensor][e]));
  const [firstLoss] = lossesFromProgress(run.progress, config.steps);
  return { name: tensorName(tensor), ratio: moved(params[tensor]) / moved(ref.params[tensor]), firstLoss,
    firstLossMatches: Math.abs(firstLoss - ref.losses[0]) <= 1e-9 * ref.losses[0] };
}
