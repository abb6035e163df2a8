// calcs.js — every number in the lab's prose, computed by the core (keys match data-calc in index.html, whose
// header comment lists the formulas). The page test checks each against the value printed in the HTML.
// The lab states only its running model's numbers: the strategies' prices live with the weeks that teach them
// (Week 3: data parallelism; Week 5: ZeRO, tensor and pipeline parallelism, 3-D layouts).
// Hardware, precision and the running model are in web/lab_example.js: 150 TFLOP/s, 2-byte values + 12 B of
// optimizer state, L = 16, D = 1024, F = 4096, B = 16384.
import { formatBytes, formatSeconds, formatSI } from "../../web/units.js";
import { FLOPS, MIXED, MODEL, priceStep } from "../../web/lab_example.js";

const millions = (x) => `${formatSI(x / 1e6)} million`;
const flop = (x) => formatSI(x, "FLOP");

// Every number reads the same single-device step: price it once per core.
const priced = new WeakMap();
function single(c) {
  if (!priced.has(c)) priced.set(c, priceStep(c, { strategy: "single", n: 1 }));
  return priced.get(c);
}
const states = (m) => m.params + m.grads + m.optimizer;

export const CALCS = {
  "m-psi": (c) => millions(single(c).memoryPerRank[0].params / MIXED.elementBytes),   // Ψ = 2·L·D·F
  "m-block-flops": (c) => flop((single(c).compute * FLOPS) / (3 * MODEL.layers)),
  "m-step-flops": (c) => flop(single(c).compute * FLOPS),
  "m-single-time": (c) => formatSeconds(single(c).total),
  "m-single-states": (c) => formatBytes(states(single(c).memoryPerRank[0])),
  "m-single-act": (c) => formatBytes(single(c).memoryPerRank[0].activations),
};
