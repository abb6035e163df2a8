// stale_lr.js — code exercise "w4-stale-lr": the shard's update with the course's staleness-aware learning rate
// η/(τ + 1) — Zhang et al. (2016) publish η/τ with the full η at τ = 0; the course shifts it by one (Week 4 #staleness) — where τ — how many updates the shard applied since the worker pulled — is
// computed from versions. Checked on an asynchronous run (ASP) on the Workers: the τ the shard recorded for every
// update equals the one its versions imply, and a replay with η/(τ + 1) ends exactly at the shards' θ.
import { intBetween, pick } from "../../../web/exercise/params.js";
import { formatNumber } from "../../../web/units.js";
import { replayGap, replayRun, sourceOf } from "../programs/ps_program.js";

// Zhang et al.'s rule as published: η/τ, and the full η for a fresh gradient (τ = 0).
const publishedRate = (lr, tau) => lr / Math.max(tau, 1);
import { EQUALITY, fail, pass, psCase, psExercise, ranksOf, replayVerdict } from "./ps_checks.js";

const starter = `// The shard applies one worker's gradient. shard: { theta: Float64Array (this shard's keys), version: how many
// updates it has applied }. push: { grad: Float64Array (the same keys), version: the shard's version when the
// worker pulled the parameters it computed on, clock }. config.lr is η.
// Apply θ ← θ − η/(τ + 1) · g, where τ is the gradient's staleness; count the update; return τ.
function applyPush(shard, push, config) {
  // TODO
}
`;

const solution = sourceOf("applyPush");

const wrongs = [
  { name: "the plain learning rate: staleness ignored",
    code: `function applyPush(shard, push, config) {
  const tau = shard.version - push.version;
  for (let i = 0; i < shard.theta.length; i++) shard.theta[i] -= config.lr * push.grad[i];
  shard.version += 1;
  return tau;
}
`,
    expect: /the step did not shrink with staleness/ },
  { name: "η/τ: a fresh gradient divides by zero",
    code: `function applyPush(shard, push, config) {
  const tau = shard.version - push.version;
  for (let i = 0; i < shard.theta.length; i++) shard.theta[i] -= config.lr / tau * push.grad[i];
  shard.version += 1;
  return tau;
}
`,
    expect: /not finite.*τ = 0/ },
  { name: "the version is never counted",
    code: `function applyPush(shard, push, config) {
  const tau = shard.version - push.version;
  for (let i = 0; i < shard.theta.length; i++) shard.theta[i] -= config.lr / (tau + 1) * push.grad[i];
  return tau;
}
`,
    expect: /its version never went up/ },
  { name: "Zhang et al.'s rule as published, η/τ with η at τ = 0: not the course's η/(τ + 1)",
    code: `function applyPush(shard, push, config) {
  const tau = shard.version - push.version;
  const lr = tau === 0 ? config.lr : config.lr / tau;
  for (let i = 0; i < shard.theta.length; i++) shard.theta[i] -= lr * push.grad[i];
  shard.version += 1;
  return tau;
}
`,
    expect: /Zhang et al\.'s rule as published.*η\/\(τ \+ 1\)/ },
  { name: "τ backwards (the worker's version minus the shard's)",
    code: `function applyPush(shard, push, config) {
  const tau = push.version - shard.version;
  for (let i = 0; i < shard.theta.length; i++) shard.theta[i] -= config.lr / (Math.abs(tau) + 1) * push.grad[i];
  shard.version += 1;
  return tau;
}
`,
    expect: /recorded τ = -\d+/ },
];

const staleCase = (rng, workers, servers) => psCase(rng, {
  workers, servers, regime: "asp", stalenessAware: true, iterations: 6,
  multipliers: Array.from({ length: workers }, (_, w) => (w === 0 ? pick(rng, [3, 5]) : 1)),
});
const cases = (rng) => [staleCase(rng, intBetween(rng, 3, 4), 1), staleCase(rng, 3, 2)];
const edgeCases = (rng) => [staleCase(rng, 6, 1)];

function check(run, testCase, core) {
  const { verdict, servers } = ranksOf(run, testCase);
  if (verdict) return verdict;
  if (servers.some((s) => !s.theta.every(Number.isFinite))) {
    return fail("The parameters are not finite: a gradient applied with τ = 0 (nobody updated the shard since the worker " +
      "pulled) divided by zero. The rate is η/(τ + 1): a fresh gradient gets the full η.");
  }
  const W = testCase.ranks - testCase.config.servers;
  const stuck = servers.find((s) => s.version === 0 && s.applied.length > 0);
  if (stuck) {
    return fail(`Shard ${stuck.shard} applied ${formatNumber(stuck.applied.length)} gradients but its version never went up: ` +
      "count every update (<code>shard.version += 1</code>), or every staleness is measured from the start.");
  }
  let replay;
  try {
    replay = replayRun(core, testCase.config, run);
  } catch (err) {
    return fail(`The run's record cannot be replayed (${err.message}).`);
  }
  for (const [k, s] of servers.entries()) {
    const j = s.applied.findIndex((a, i) => a.tau !== replay.tau[k][i]);
    if (j >= 0) {
      return fail(`Update ${j} of shard ${k} recorded τ = ${s.applied[j].tau}, but the gradient was computed at version ` +
        `${j - replay.tau[k][j]} and the shard was at version ${j}: the versions say τ = ${replay.tau[k][j]} ` +
        "(updates applied since the worker pulled = the shard's version now − the push's version).");
    }
  }
  if (replayGap(servers, replay) < EQUALITY) {
    return pass(`Every one of the ${servers[0].applied.length} updates of shard 0 (${W} workers, staleness up to ` +
      `${Math.max(...servers.flatMap((s) => s.applied.map((a) => a.tau)))}) was applied with η/(τ + 1); the run replays exactly.`);
  }
  const plain = replayRun(core, { ...testCase.config, stalenessAware: false }, run);
  if (replayGap(servers, plain) < EQUALITY) {
    return fail("The run replays exactly with the plain rate η: the step did not shrink with staleness. Divide η by τ + 1.");
  }
  if (replayGap(servers, replayRun(core, testCase.config, run, publishedRate)) < EQUALITY) {
    return fail("The run replays exactly with Zhang et al.'s rule as published — η/τ, and η for a fresh gradient — " +
      "which takes twice the course's step at τ = 1. This exercise (and Week 4's widgets and simulator) uses the " +
      "course's form η/(τ + 1), the same rule shifted by one so that τ = 0 needs no special case.");
  }
  return fail(`${replayVerdict(run, testCase, core, servers).message} Apply θ ← θ − η/(τ + 1)·g to every key of the shard, once per push.`);
}

export const staleLr = psExercise("applyPush", {
  id: "w4-stale-lr",
  title: "A staleness-aware learning rate",
  prompt: `<p>Under ASP a gradient can be τ updates old when it is applied. Write the shard's update
    <code>applyPush(shard, push, config)</code>: compute τ from the versions, apply θ ← θ − η/(τ + 1)·g
    — the course's form of Zhang et al.'s staleness-aware rate (they publish η/τ with the full η at τ = 0;
    <a href="#staleness">Staleness and what it does to SGD</a> says why the course shifts it by one) — count the
    update, and return τ.</p>
    <p>The parameter server runs on the Workers asynchronously, one worker 3–5× slower than the others, so some gradients
    are many updates old; the checker replays the run from what it recorded.</p>`,
  hints: [
    "τ = <code>shard.version − push.version</code>: how many updates landed since the worker pulled.",
    "The step is <code>config.lr / (tau + 1)</code>; a fresh gradient (τ = 0) gets the full η. Then <code>shard.version += 1</code>.",
  ],
  solutionText: `<p>A stale gradient points downhill from where the model <em>was</em>; scaling it by 1/(τ + 1) trusts it less
    the older it is, which keeps ASP stable at learning rates where it would otherwise diverge. Zhang et al. (2016)
    proved convergence for their rule, η/τ with the full η for a fresh gradient; the course's η/(τ + 1) is that rule
    shifted by one (<a href="#staleness">Staleness and what it does to SGD</a>). Measure τ in versions, not in time: a
    shard's version counts its updates exactly, and the worker's push carries the version it read, so τ needs no clock
    at all.</p>`,
  starterExpect: /^Shard 0 applied 18 gradients but its version never went up/,   // the starter never counts an update
}, { starter, solution, wrongs, cases, edgeCases, check });
