// capstone_expected.mjs — what Week 6's capstone report must show (tests/e2e/week6_capstone.test.mjs), written down
// once rather than computed by the page's own functions. Cells with a closed form carry it; the rest come from the
// seeded simulation (failures, stragglers, the trained losses) and are frozen golden values, like the core's golden
// traces: a change to the job model, the seeds or the formatting must change them here, on purpose.
//
// The job (capstone_setup.js HARDWARE): Ψ = 32 blocks × 2 × 4096 × 16384 = 4 294 967 296 parameters, bf16 (2 B), 4096
// rows per GPU at 150 TFLOP/s, InfiniBand α = 10 µs, β = 1/(25 GB/s); checkpoint 20 s, restart 300 s + detection 30 s.
//   stepCompute = 6·Ψ·4096 / 150e12 = 0.7037 s                                      → "0.704 s" (any P)
//   fleetMtbf   = 24 h / P: 86400 / 64 = 1350 s, 86400 / 16 = 5400 s                → "22.5 min", "90 min"
// DEFAULTS (P = 64, top-k 0.001 by all-gather): each of the 64 matrices (4096 × 16384) keeps ⌈67108.864⌉ = 67109 values
// of 2 B + a 4-byte index, and the all-gather's ring moves P − 1 = 63 of those payloads:
//   bytesPerStep   = 63 × 64 × 67109 × 6 B = 1 623 500 928 B                          → "1.62 GB"; × 1000 steps → "1.62 TB"
//   stepComm       = 63α + 1 623 500 928·β = 0.00063 + 0.064940 = 0.06557 s          → "0.0656 s"
//   the rest (4 failures drawn, 473 straggling steps, the loss) is the seeded run's: wall 2258.6 s, efficiency
//   1000 × 0.7037 / 2258.6 = 31.2%, Daly's expected wall 1745 s from the drawn work.
// CHANGED (P = 16, no stragglers, PowerSGD rank 4, two ring all-reduces of P and Q per step): P and Q of one
// 4096 × 16384 matrix are (4096 + 16384) × 4 = 81 920 values, 64 matrices × 2 B = 10 485 760 B, and the ring sends
// 2(P − 1)/P of it:
//   bytesPerStep   = 2 × 15/16 × 10 485 760 = 19 660 800 B                            → "19.7 MB"; × 1000 → "19.7 GB"
//   stepComm       = 2 × 2(P − 1)α + 19 660 800·β = 0.0006 + 0.00078643 = 0.00138643 s → "0.00139 s"
//   wall           = 1000 × (0.70369 + 0.00139) + 10 checkpoints × 20 s = 905.07 s  → "15.1 min" (no failure drawn)
//   efficiency     = 703.69 / 905.07 = 77.7%
//   expectedWall   = Daly (2006): M·e^(R/M)·(e^((τ + δ)/M) − 1)·T_s/τ with M = 5400 s, R = 330 s, δ = 20 s,
//                    τ = 100 steps × 0.70507 s = 70.507 s, T_s = 705.07 s: 5400 × 1.06303 × 0.016902 × 10 = 970.2 s
//                    → "16.2 min"
// ASYNC is CHANGED with SSP: the report above is CHANGED's; only the time to the target differs.
// The target rows (steps to the loss target at P = 1, 2, 4, 8 and their wall time) are the seeded trainings'.

const CHANGED_REPORT = {
  cells: {"wall": "15.1 min", "efficiency": "77.7%", "failures": "0", "fleetMtbf": "90 min", "bytesPerStep": "19.7 MB", "bytesPerWorker": "19.7 GB", "stepCompute": "0.704 s", "stepComm": "0.00139 s", "finalLoss": "0.0515", "expectedWall": "16.2 min"},
  findings: [
      "16 GPUs finished 1000 steps in 15.1 min of wall-clock time, of which 77.7% was useful compute; the largest loss was checkpoint writes (3.33 min).",
      "Compression cut each GPU's traffic to 19.7 MB a step, 99.9% less than the full gradient (16.1 GB), still by ring all-reduce.",
      "The held-out loss of the teacher task fell from 2.95 to 0.0515 (57.3× lower).",
      "No failure hit the run (fleet MTBF 90 min; Daly's model expects the run to take 16.2 min). Checkpointing every 100 steps is too frequent: the optimum is about 640 steps.",
      "In expectation, efficiency falls from 77.5% on 1 GPU to 58.8% on 64 and 0.85% on 1024 with these settings.",
    ],
};

export const EXPECTED = {
  defaults: {
    cells: {"wall": "37.6 min", "efficiency": "31.2%", "failures": "4", "fleetMtbf": "22.5 min", "bytesPerStep": "1.62 GB", "bytesPerWorker": "1.62 TB", "stepCompute": "0.704 s", "stepComm": "0.0656 s", "finalLoss": "0.05", "expectedWall": "29.1 min"},
    findings: [
      "64 GPUs finished 1000 steps in 37.6 min of wall-clock time, of which 31.2% was useful compute; the largest loss was detection + restarts (15.6 min).",
      "Compression cut each GPU's traffic to 1.62 GB a step, 90.4% less than the full gradient (16.9 GB), by all-gather, whose bytes grow with P.",
      "The held-out loss of the teacher task fell from 2.95 to 0.05 (59.1× lower).",
      "4 failures hit the run (fleet MTBF 22.5 min; Daly's model expects the run to take 29.1 min). Checkpointing every 100 steps is too frequent: the optimum is about 199 steps.",
      "In expectation, efficiency falls from 76.9% on 1 GPU to 40.3% on 64 and 0.0773% on 1024 with these settings.",
    ],
    target: { best: 8, summary: "Trained to a held-out loss of 0.1 on the 2 × (8, 32) teacher task (4 rows per GPU), synchronously (the job above: top-k-compressed gradients by all-gather), at most 1000 steps. Soonest on P = 8: 380 steps, 6.29 min expected with failures and checkpoints.",
      rows: [
      { workers: "1", steps: "448", wall: "6.8 min" },
      { workers: "2", steps: "428", wall: "6.59 min" },
      { workers: "4", steps: "405", wall: "6.37 min" },
      { workers: "8 (best)", steps: "380", wall: "6.29 min" },
    ] },
  },
  changed: { ...CHANGED_REPORT,
    target: { best: 8, summary: "Trained to a held-out loss of 0.1 on the 2 × (8, 32) teacher task (4 rows per GPU), synchronously (the job above: PowerSGD-compressed gradients by ring all-reduce), at most 1000 steps. Soonest on P = 8: 360 steps, 5.62 min expected with failures and checkpoints.",
      rows: [
      { workers: "1", steps: "421", wall: "6.37 min" },
      { workers: "2", steps: "415", wall: "6.31 min" },
      { workers: "4", steps: "378", wall: "5.8 min" },
      { workers: "8 (best)", steps: "360", wall: "5.62 min" },
    ] },
  },
  async: { ...CHANGED_REPORT,
    target: { best: 8, summary: "Trained to a held-out loss of 0.1 on the 2 × (8, 32) teacher task (4 rows per GPU), asynchronously, SSP with staleness bound s = 2 through P parameter-server shards (whole gradients, no compression), at most 1000 steps. Soonest on P = 8: 359 steps, 8.01 min expected with failures and checkpoints.",
      rows: [
      { workers: "1", steps: "415", wall: "11.1 min" },
      { workers: "2", steps: "415", wall: "9.91 min" },
      { workers: "4", steps: "378", wall: "8.56 min" },
      { workers: "8 (best)", steps: "359", wall: "8.01 min" },
    ] },
  },
};
