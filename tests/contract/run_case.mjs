// run_case.mjs — how a contract case (cluster_contract.mjs) is run, the same on both clusters: in Node on the
// judge cluster (tests/web/cluster_contract.test.mjs) and in the fixture page on the Worker cluster
// (tests/e2e/cluster.test.mjs imports this file into the page). No Node or DOM API: it only calls cluster.run.
//
//   const got = await runCase(cluster, { code, options, during, then });
//   got: the RunResult made plain (below), plus logged/progressed (the live onLog/onProgress calls, in order),
//        or { rejected: message } when run() rejects (misuse); with `during`, got.during is what a second run()
//        started while the first is in progress did; with `then` (a run, or a list of runs made one after the
//        other), got.then is the next run's result (or the list of them).
// options: the clusters' run options, plus stopAfterMs (Stop pressed that long after the run started; 0: before)
// and unsendableInput (rank 0's input is a function, made here: page.evaluate cannot carry one into the page).

// A value as it would cross page.evaluate: undefined and typed arrays made explicit, the rest as is.
export function plain(value) {
  if (value === undefined) return { undefined: true };
  if (ArrayBuffer.isView(value)) return { typed: value.constructor.name, values: Array.from(value) };
  return value;
}

async function once(cluster, code, { stopAfterMs = null, unsendableInput = false, ...options } = {}) {
  if (unsendableInput) options.inputs = [() => 1, ...(options.inputs ?? []).slice(1)];
  const logged = [], progressed = [];
  const stopper = new AbortController();
  if (stopAfterMs === 0) stopper.abort();
  const timer = stopAfterMs > 0 ? setTimeout(() => stopper.abort(), stopAfterMs) : null;
  const started = cluster.run(code, { ...options, signal: stopper.signal,
    onLog: (rank, line) => logged.push([rank, line]), onProgress: (rank, value) => progressed.push([rank, value]) });
  return {
    outcome: started.then(
      (result) => ({ ...result, results: result.results.map(plain), logged, progressed }),
      (err) => ({ rejected: err.message }),
    ).finally(() => clearTimeout(timer)),
  };
}

export async function runCase(cluster, { code, options = {}, during = null, then = null }) {
  const first = await once(cluster, code, options);
  const second = during && await once(cluster, during.code, during.options);
  const got = await first.outcome;
  if (second) got.during = await second.outcome;
  const next = async (run) => (await once(cluster, run.code, run.options)).outcome;
  if (Array.isArray(then)) {
    got.then = [];
    for (const run of then) got.then.push(await next(run));
  } else if (then) {
    got.then = await next(then);
  }
  return got;
}
