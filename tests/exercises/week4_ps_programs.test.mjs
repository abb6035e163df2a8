// week4_ps_programs.test.mjs — Week 4's parameter server on the judge cluster with the real wasm core: every
// regime finishes and replays exactly from its own record; ASP's staleness comes from the speeds (the slow worker's
// gradients are the stale ones); SSP never lets a worker more than s clocks ahead and does let it that far; BSP has
// no staleness; backup workers drop exactly the slow workers' gradients; K shards split the keys. Beyond what
// judging.test.mjs proves for the exercises (solutions pass, wrong programs fail).
//   node --test tests/exercises/week4_ps_programs.test.mjs
import { test } from "node:test";
import assert from "node:assert/strict";
import { createRequire } from "node:module";
import { runLocal } from "../../web/cluster/local_cluster.js";
import { finalLoss, histogram, lossCurve, psConfig, psInputs, psProgram, replayGap, replayRun, serversOf,
         stalenessOf, workersOf } from "../../lessons/week4/programs/ps_program.js";
import { keyRanges } from "../../web/programs/param_keys.js";

const core = await createRequire(import.meta.url)("../wasm/load_core.cjs")();

async function psRun(fields, W, multipliers, seed = 1) {
  const config = psConfig(core, fields, W, { distribution: "fixed", multipliers });
  const K = config.servers;
  const run = await runLocal(psProgram(), { ranks: K + W, inputs: psInputs(config, K + W), core, timeoutMs: 60000, delivery: { seed } });
  assert.equal(run.status, "ok", JSON.stringify(run.error ?? run.deadlock ?? run.timeout));
  const servers = serversOf(run);
  return { run, config, servers, workers: workersOf(run), gap: replayGap(servers, replayRun(core, config, run)) };
}

test("key ranges: contiguous, in order, covering every key, balanced to one key", () => {
  for (const [total, K] of [[10, 3], [1024, 5], [7, 7], [100, 1]]) {
    const r = keyRanges(total, K);
    assert.equal(r.length, K);
    assert.equal(r[0].begin, 0);
    assert.equal(r[K - 1].end, total);
    for (let k = 1; k < K; k++) assert.equal(r[k].begin, r[k - 1].end);
    const sizes = r.map((x) => x.end - x.begin);
    assert.ok(Math.max(...sizes) - Math.min(...sizes) <= 1, JSON.stringify(sizes));
  }
  assert.deepEqual(keyRanges(10, 3), [{ begin: 0, end: 4 }, { begin: 4, end: 7 }, { begin: 7, end: 10 }]);
});

test("ASP: every regime replays exactly; the slow worker's gradients are the stale ones", async () => {
  const { servers, workers, gap, run, config } = await psRun({ regime: "asp", servers: 2 }, 4, [1, 1, 1, 4]);
  assert.equal(gap, 0, "the shards' θ is exactly the replay's");
  assert.equal(servers.length, 2);
  assert.equal(workers.length, 4);
  for (const s of servers) assert.equal(s.applied.length, 4 * config.iterations, "every gradient applied once");
  const slow = servers[0].applied.filter((a) => a.worker === 3).map((a) => a.tau);
  const fast = servers[0].applied.filter((a) => a.worker !== 3).map((a) => a.tau);
  const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  // While the fast ones run (their 12 clocks take as long as its first 3), each of its gradients is ~12 updates old.
  assert.ok(mean(slow.slice(0, 3)) >= 8, `a 4× slower worker's gradients are ~12 updates old (${slow.slice(0, 3)})`);
  assert.ok(mean(fast) < 3, `the fast workers' are fresh (mean ${mean(fast)})`);
  assert.equal(histogram(stalenessOf(servers, config)).reduce((a, b) => a + b, 0), 2 * 4 * config.iterations);
  const curve = lossCurve(run.progress);
  assert.equal(curve.length, 4 * config.iterations);
  assert.ok(curve[curve.length - 1].loss < curve[0].loss, "training lowers the held-out loss");
  assert.ok(Math.abs(finalLoss(core, config, servers) - curve[curve.length - 1].loss) < curve[0].loss, "finite final loss");
});

test("SSP(s): no worker ever starts a clock more than s ahead of the slowest, and the fast ones get that far", async () => {
  for (const s of [0, 1, 3]) {
    const { servers, workers, gap } = await psRun({ regime: "ssp", staleness: s, iterations: 10 }, 3, [1, 1, 4], s + 2);
    assert.equal(gap, 0);
    let most = -Infinity;
    for (const w of workers) {
      for (const [c, { versions }] of w.clocks.entries()) {
        const done = [0, 0, 0];
        for (const a of servers[0].applied.slice(0, versions[0])) done[a.worker] += 1;
        assert.ok(c - Math.min(...done) <= s, `worker ${w.worker} started clock ${c} with the slowest at ${Math.min(...done)} (s = ${s})`);
        most = Math.max(most, c - Math.min(...done));
      }
    }
    assert.equal(most, s, `s = ${s} is reached`);
  }
});

test("BSP has no staleness; backup workers drop the slow workers' late gradients and close rounds sooner", async () => {
  const bsp = await psRun({ regime: "bsp", iterations: 8 }, 4, [1, 1, 1, 3]);
  assert.equal(bsp.gap, 0);
  assert.ok(stalenessOf(bsp.servers, bsp.config).every((t) => t === 0));
  assert.ok(bsp.servers[0].applied.every((a) => a.workers.length === 4));
  const backup = await psRun({ regime: "backup", backup: 1, iterations: 8 }, 4, [1, 1, 1, 3]);
  assert.equal(backup.gap, 0);
  assert.ok(backup.servers[0].applied.every((a) => a.workers.length === 3 && !a.workers.includes(3)), "the 3× slow worker never makes a round");
  assert.equal(backup.servers[0].dropped, 8, "each of its 8 gradients arrives late and is dropped");
  const closed = (r) => r.servers[0].applied.at(-1).time;
  assert.ok(closed(backup) < closed(bsp) * 0.6, `rounds close at the fast workers' pace (${closed(backup)} vs ${closed(bsp)} ms)`);
});

test("the staleness-aware rate is what the replay applies, and a wrong rate would not replay", async () => {
  const aware = await psRun({ regime: "asp", stalenessAware: true }, 3, [1, 1, 5]);
  assert.equal(aware.gap, 0);
  const plain = replayRun(core, { ...aware.config, stalenessAware: false }, aware.run);
  assert.ok(replayGap(aware.servers, plain) > 1e-6, "the replay can tell η from η/(τ + 1)");
});
