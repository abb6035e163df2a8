// calcs.js — every number in Week 1's prose, computed by the core (keys match data-calc in index.html,
// whose header comment lists the formulas). The page test checks each against the value printed in the HTML.
import { formatBytes, formatPercent as percent, formatRate, formatRatio, formatSeconds } from "../../web/units.js";

// A ratio with 3 significant digits, or a fixed number of decimals.
const times = (x, decimals) => formatRatio(x, decimals === undefined ? {} : { decimals });

// Example 1: α = 1 µs at 100 GB/s. Example 2: α = 5 µs at 12.5 GB/s (an InfiniBand-class link).
const A1 = 1e-6, B1 = 1 / 100e9;
const A2 = 5e-6, B2 = 1 / 12.5e9;
const COMPUTE = 0.030, GRADIENT = 496e6;

export const CALCS = {
  "ab1-nstar": (c) => formatBytes(c.crossoverSize(A1, B1)),
  "ab1-t-nstar": (c) => formatSeconds(c.messageTime(A1, B1, 1e5)),
  "ab1-beff-nstar": (c) => formatRate(c.effectiveBandwidth(A1, B1, 1e5)),
  "ab1-t-1k": (c) => formatSeconds(c.messageTime(A1, B1, 1e3)),
  "ab1-beff-1k": (c) => formatRate(c.effectiveBandwidth(A1, B1, 1e3)),
  "ab1-t-100m": (c) => formatSeconds(c.messageTime(A1, B1, 1e8)),
  "ab1-beff-100m": (c) => formatRate(c.effectiveBandwidth(A1, B1, 1e8)),
  "ab2-nstar": (c) => formatBytes(c.crossoverSize(A2, B2)),
  "ab2-beff-nstar": (c) => formatRate(c.effectiveBandwidth(A2, B2, c.crossoverSize(A2, B2))),
  "ab2-n90": (c) => formatBytes(9 * c.crossoverSize(A2, B2), 4),
  "bk-many": (c) => formatSeconds(c.messagesTime(A2, B2, 200, 50e3)),
  "bk-one": (c) => formatSeconds(c.messageTime(A2, B2, 10e6)),
  "bk-diff": (c) => formatSeconds(c.messagesTime(A2, B2, 200, 50e3) - c.messageTime(A2, B2, 10e6)),
  "bk-ratio": (c) => times(c.messagesTime(A2, B2, 200, 50e3) / c.messageTime(A2, B2, 10e6)),
  "bk-eff-50k": (c) => percent(c.effectiveBandwidth(A2, B2, 50e3) * B2),
  "bk-eff-25mib": (c) => percent(c.effectiveBandwidth(A2, B2, 25 * 2 ** 20) * B2),
  "sim-t-1m": (c) => formatSeconds(c.messageTime(A2, B2, 1e6)),
  "sim-bcast-8": (c) => formatSeconds(c.simulate({ ranks: 8, alpha: A2, beta: B2,
    programs: c.scenario("linear-broadcast", { ranks: 8, bytes: 1e6 }) }).makespan),
  "sim-gather-8": (c) => formatSeconds(c.simulate({ ranks: 8, alpha: A2, beta: B2,
    programs: c.scenario("gather-to-root", { ranks: 8, bytes: 1e6 }) }).makespan),
  "il-comm": (c) => formatSeconds(c.messageTime(A2, B2, GRADIENT)),
  "il-serial": (c) => formatSeconds(c.stepTime(COMPUTE, c.messageTime(A2, B2, GRADIENT), 0)),
  "il-overlap": (c) => formatSeconds(c.stepTime(COMPUTE, c.messageTime(A2, B2, GRADIENT), 1)),
  "il-idle": (c) => formatSeconds(c.stepTime(COMPUTE, c.messageTime(A2, B2, GRADIENT), 1) - COMPUTE),
  "am-s": (c) => percent(c.amdahlSerialFraction(8, 16)),
  "am-limit": (c) => times(c.amdahlLimit(c.amdahlSerialFraction(8, 16))),
  "am-32": (c) => times(c.amdahlSpeedup(c.amdahlSerialFraction(8, 16), 32), 1),
  "am-1024": (c) => times(c.amdahlSpeedup(0.05, 1024), 1),
  "am-limit-5": (c) => times(c.amdahlLimit(0.05)),
  "gu-1024": (c) => times(c.gustafsonSpeedup(0.05, 1024), 1),
  "tail-100": (c) => percent(c.probabilityAnySlow(0.01, 100)),
};
