// week4_exercises.test.mjs — Week 4's exercises and prose numbers, checked in Node against the real wasm core, beyond
// the rules every exercise keeps (exercise_rules.test.mjs: each numeric answer equals its oracle — H_P, H_{P+b} − H_b,
// K = W, SSP's max(I·t_w, (I − s)·t_max), 1 − q^(T−1) — for every parameter a learner can draw, and its wrongAnswer
// fails): the regime choice's slow-node model by hand; the scenarios behind the widgets agree with their
// closed forms within stated tolerances; every data-calc number in index.html equals what calcs.js computes.
import test from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";

import { regimeChoice } from "../../lessons/week4/exercises/regime_choice.js";
import { sspStall } from "../../lessons/week4/exercises/ps_numeric.js";
import { judgeAnswer } from "../../web/exercise/answer_check.js";
import * as S from "../../lessons/week4/ps_setup.js";

const core = await createRequire(import.meta.url)("../wasm/load_core.cjs")();
const H = (n) => Array.from({ length: n }, (_, i) => 1 / (i + 1)).reduce((a, b) => a + b, 0);
const choose = (n, k) => { let r = 1; for (let i = 0; i < k; i++) r *= (n - i) / (k - i); return r; };

// Every option's own explanation is exercise_rules.test.mjs's (choiceRules), for every choice exercise.
test("w4-regime: every option's claim agrees with its flag", () => {
  for (const [i, o] of regimeChoice.options.entries()) assert.equal(o.claim(core), o.correct, `option ${i}: ${o.text}`);
  // The slow-node model by hand: a round is 4 s if any worker is slow, else 1 s; quota 10 of 12 is slow only if ≥ 3 are.
  const bsp = 1 + 3 * (1 - 0.9 ** 10);
  const tail = 1 - [0, 1, 2].reduce((a, j) => a + choose(12, j) * 0.1 ** j * 0.9 ** (12 - j), 0);
  const SLOW = { distribution: "slow-node", slowProbability: 0.1, slowdown: 4 };
  assert.ok(Math.abs(core.expectedRoundCompute(SLOW, 10, 10) - bsp) < 1e-9);
  assert.ok(Math.abs(core.expectedRoundCompute(SLOW, 12, 10) - (1 + 3 * tail)) < 1e-9);
});

// Both conventions of section 4, by hand: the stall counted to the server's last answer, (I − s)·t_max for a fast
// worker, and to the end of its last compute, (I − s − 1)·t_max + t_w; and BSP, every clock I·t_max.
test("w4-ssp-stall: the other convention and the bound left out are each told what they miss", () => {
  let told = 0;
  for (const speeds of [[1, 1, 1, 1, 3, 5], [1, 1, 2], [1, 2, 4], [1, 1, 1, 4]]) for (const iterations of [20, 40, 100]) {
    for (const bound of [1, 2, 4, 8]) {
      const p = { speeds, iterations, bound }, I = iterations, tmax = 0.1 * Math.max(...speeds);
      const stall = (finish) => {
        const f = speeds.map((m) => finish(0.1 * m));
        return f.reduce((a, x, w) => a + x - I * 0.1 * speeds[w], 0) / f.reduce((a, b) => a + b, 0);
      };
      const answer = sspStall.answer(p, core), given = { params: p, core };
      const slips = {
        "when the server answers": stall((tw) => Math.max(I * tw, (I - bound - 1) * tmax + tw)),
        "BSP's stall": stall(() => I * tmax),
      };
      const declared = sspStall.slips.map((slip) => slip.value(p, core));
      for (const [k, [words, value]] of Object.entries(slips).entries()) {
        const r = judgeAnswer(String(value), answer, sspStall, given);
        if (Math.abs(value - answer) <= 0.01 * answer) {
          assert.equal(r.pass, true);
          assert.equal(declared[k], null, "a slip that lands on the answer is declared as none");
          continue;
        }
        assert.ok(Math.abs(declared[k] - value) < 1e-12, `${words}: declared ${declared[k]}, by hand ${value}`);
        assert.equal(r.pass, false);
        assert.match(r.message, new RegExp(words), `${JSON.stringify(p)} ${value}: ${r.message}`);
        assert.doesNotMatch(r.message, /round/, "no rounding advice for a missed convention");
        told += 1;
      }
    }
  }
  assert.ok(told > 60, `slips told on ${told} draws`);
});

// ── the widgets' scenarios against their closed forms ──────────────────────────────────────────────────────────
// w4-ssp-gate is solvable from its prompt: what sspAfterPush is handed is stated there, not only in the starter's comments
// — whether the pushing worker is already held, and what ssp.clocks is indexed by and holds.
test("w4-ssp-gate: the prompt states ssp.held's state at the call and the shape of ssp.clocks", async () => {
  const { sspGate } = await import("../../lessons/week4/exercises/ssp_gate.js");
  const text = sspGate.prompt.replace(/<[^>]+>/g, "").replace(/\s+/g, " ");
  for (const said of ["the pushing worker is not in it when sspAfterPush is called",
    "ssp.clocks is an array with one entry per worker, indexed by worker number — the server shards have none",
    "how many clocks that worker has finished (all 0 at the start; you update the pushing worker's)",
    "take a worker out of ssp.held when you release it"]) {
    assert.ok(text.includes(said), said);
  }
});

test("section 1: 2000 simulated BSP rounds average the closed form's E[max] within 3 standard errors", () => {
  for (const distribution of ["exponential", "lognormal", "slow-node", "fixed"]) {
    const r = S.stragglerRounds(core, { distribution });
    const sd = Math.sqrt(r.times.reduce((a, t) => a + (t - r.mean) ** 2, 0) / (r.times.length - 1));
    const network = 0.001;   // a round's push and pull of 4 kB: well under a millisecond
    assert.ok(Math.abs(r.mean - r.expected) <= 3 * sd / Math.sqrt(r.times.length) + network, `${distribution}: ${r.mean} vs ${r.expected}`);
  }
  const equal = S.stragglerRounds(core, { multipliers: [1, 1, 1, 1, 1, 1] });
  assert.ok(Math.abs(equal.expected - H(6)) < 1e-6, "six equal exponentials: H_6");
});

test("section 2: the simulated busiest link equals psBandwidth's closed form; the round falls until K = W", () => {
  for (const [workers, parameters] of [[4, 1e6], [8, 25e6], [16, 5e6]]) {
    let previous = Infinity;
    for (let K = 1; K <= workers; K++) {
      const r = S.psRound(core, { workers, servers: K, parameters });
      // (K that does not divide N: the first shard holds one key more, 1e-6 of its range)
      const near = (a, b) => Math.abs(a - b) <= 1e-5 * b;
      assert.ok(near(r.busiest.busy, Math.max(r.closed.serverSeconds, r.closed.workerSeconds)), `W ${workers} K ${K}`);
      assert.ok(near(r.serverBytes, workers * 4 * parameters / K), `W ${workers} K ${K}: ${r.serverBytes} B`);
      assert.ok(r.round < previous, `W ${workers}: the round did not fall at K = ${K}`);
      previous = r.round;
    }
    assert.equal(S.serversToBalance(core, workers, parameters), workers);
  }
});

test("section 3: ASP on τ + 1 equal workers makes every update after the first τ exactly τ stale; τ = 20 diverges, η/(τ + 1) does not", () => {
  for (const tau of [2, 8]) {
    const r = S.staleRun(core, { tau });
    assert.ok(r.staleness.slice(tau).every((x) => x === tau), `τ = ${tau}`);
  }
  const plain = S.staleRun(core, { tau: 20 }), aware = S.staleRun(core, { tau: 20, aware: true });
  assert.ok(!(plain.finalLoss < 10));
  assert.ok(aware.finalLoss < aware.loss[0]);
  assert.ok(S.staleRun(core, { tau: 0 }).finalLoss < aware.finalLoss, "the stable stale run is slower than the fresh one");
});

test("section 4: SSP's simulated stall equals the fixed-speed closed form within 0.1 points; with noise a bound cuts the stall", () => {
  for (const r of S.sspTradeoff(core)) assert.ok(Math.abs(r.stall - r.closed) < 1e-3, `s = ${r.s}: ${r.stall} vs ${r.closed}`);
  const noisy = S.sspTradeoff(core, { distribution: "exponential", bounds: [0, 4] });
  assert.ok(noisy[1].stall < noisy[0].stall / 2 && noisy[1].makespan < noisy[0].makespan);
  const bsp = S.regimeRun(core, { regime: "bsp" }).run, asp = S.regimeRun(core, { regime: "asp" }).run;
  assert.ok(Math.max(...bsp.updates.tau) === 0 && asp.stallFraction < 0.01 && bsp.stallFraction > 0.5);
});

test("section 5: backup rounds (stragglers cancelled) average H_{P+b} − H_b within 4%", () => {
  for (const r of S.backupSweep(core, { quota: 8, max: 4 })) {
    assert.ok(Math.abs(r.closed - (H(8 + r.backup) - H(r.backup))) < 1e-9);
    assert.ok(Math.abs(r.mean - r.closed) < 0.04 * r.closed, `b = ${r.backup}: ${r.mean} vs ${r.closed}`);
  }
});

test("section 6: Hogwild!'s measured collision rate is within 2 points of 1 − q^(T−1); plain writes lose updates", () => {
  for (const sparsity of [0.001, 0.005, 0.01]) {
    for (const r of S.hogwildGrid(core, { sparsity })) {
      assert.ok(Math.abs(r.collisionRate - r.predicted) < 0.02, `k ${r.support} T ${r.threads}: ${r.collisionRate} vs ${r.predicted}`);
      assert.equal(r.lostWrites, 0);
    }
  }
  const plain = S.hogwildGrid(core, { sparsity: 0.1, atomic: false });
  assert.equal(plain[0].lostWrites, 0);
  assert.ok(plain[2].lostWrites > 0 && plain[2].finalLoss > 10 * plain[0].finalLoss);
});

test("section 7: the reads each consistency model forbids follow its rule, and forbidding costs waiting", () => {
  const { reads, costs } = S.consistencyReads(core);
  assert.equal(reads.length, S.CONSISTENCY.clocks - 1);
  for (const r of reads) {
    const behind = r.seen.map((n) => r.clock - n);
    assert.equal(r.verdicts.bsp.allowed, behind.every((b) => b <= 0), `clock ${r.clock}`);
    assert.equal(r.verdicts.bounded.allowed, behind.every((b) => b <= S.CONSISTENCY.bound), `clock ${r.clock}`);
    assert.ok(r.verdicts.eventual.allowed);
    assert.ok(!r.verdicts.ryw.allowed && r.verdicts.ryw.wait < 1e-3, "a read before the reply misses one's own push, for a round trip");
  }
  assert.ok(reads.some((r) => !r.verdicts.bsp.allowed) && reads.some((r) => r.verdicts.bounded.allowed));
  assert.ok(costs.bsp.stallFraction > costs.bounded.stallFraction && costs.bounded.stallFraction > costs.eventual.stallFraction);
});

// Lamport (1979): sequentially consistent = the result of SOME total order of all operations that keeps each
// processor's program order. The order in which the one server handled them is such an order for this run, so the
// reads BSP's clock bound forbids are sequentially consistent: the page must not say SC forbids them.
test("section 7: sequential consistency allows the reads BSP forbids; the models are named as clock bounds", () => {
  const { reads, writes } = S.consistencyReads(core), { reader } = S.CONSISTENCY;
  for (const times of writes) times.forEach((t, j) => j > 0 && assert.ok(t > times[j - 1], "a worker's writes in clock order"));
  reads.forEach((r, i) => {
    assert.ok(i === 0 || r.time > reads[i - 1].time, "the reads in program order");
    assert.ok(writes[reader][r.clock - 1] <= r.time, `the read before clock ${r.clock} comes after its own write of clock ${r.clock - 1}`);
    assert.deepEqual(r.seen, writes.map((times) => times.filter((t) => t <= r.time).length), "each read returns the writes ordered before it");
  });
  assert.equal(reads.filter((r) => !r.verdicts.bsp.allowed).length, reads.length, "BSP forbids every read of this interleaving");
  assert.deepEqual(Object.values(S.MODELS).map((m) => m.name), ["BSP (clock-bounded, s = 0)", `SSP (clock-bounded, s = ${S.CONSISTENCY.bound})`,
    "ASP (eventual consistency)", "read-your-writes"]);
  const page = readFileSync(new URL("../../lessons/week4/index.html", import.meta.url), "utf8").replace(/<[^>]+>/g, "").replace(/\s+/g, " ");
  assert.doesNotMatch(page, /sequential consistency (forbids|costs|\(BSP\))|form of it is BSP/i);
  assert.match(page, /sequential consistency \(Lamport 1979\) would allow all four/i);
});
