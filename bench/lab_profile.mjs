// Where a lab step's CPU time goes, in headless Chromium (the set-up of bench/lab_steps.mjs: 8 Workers, the lab's
// program, warm). Prints the CPU time per step of each kind of Chromium thread over the timed runs — the ranks'
// Workers, the page's main thread, V8's background threads (concurrent compilation) — read from /proc, so it is
// CPU, not wall time, whatever the machine's load. With --cdp, also a sampling profile of JavaScript in the page
// and in every Worker (DevTools protocol, Profiler domain): each thread's busiest functions by self time, and the
// .cpuprofile files (open them in DevTools' Performance panel) in --out.
//   node bench/lab_profile.mjs [--runs 2] [--cdp] [--interval 1000] [--top 12] [--out dir] [--site dir] [lab options]
//   DEBUG=pw:browser node bench/lab_profile.mjs --js-flags=--trace-deopt    (V8's own traces, on Chromium's stdout)
// A sampling profile is taken in wall-clock intervals: on a loaded machine a thread that is descheduled inside a
// call (postMessage waking another thread, typically) is charged for the wait, so trust its proportions only on
// a quiet machine; the per-thread CPU above is exact.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ws as WebSocket } from "playwright-core/lib/utilsBundle";
import { arg, labConfig, openLab, threadCpuMs } from "./lab_session.mjs";

const config = labConfig();
const RUNS = Number(arg("runs", 2));
const CDP = process.argv.includes("--cdp");
const INTERVAL_US = Number(arg("interval", 1000));
const TOP = Number(arg("top", 12));
const OUT = arg("out", "/tmp/dsml-lab-profile");
const jsFlags = process.argv.filter((a) => a.startsWith("--js-flags="));

const lab = await openLab(config, { site: arg("site", undefined), args: [...jsFlags, ...(CDP ? ["--remote-debugging-port=0"] : [])] });
try {
  const cdp = CDP ? await connect(lab.profile) : null;
  const threads = cdp ? await cdp.attachPageAndWorkers() : [];
  for (const t of threads) {
    await cdp.send("Profiler.enable", {}, t.session);
    await cdp.send("Profiler.setSamplingInterval", { interval: INTERVAL_US }, t.session);
    await cdp.send("Profiler.start", {}, t.session);
  }
  const cpu0 = threadCpuMs(lab.profile);
  const result = await lab.runs(RUNS);
  const cpu1 = threadCpuMs(lab.profile);
  const steps = config.steps * RUNS;
  const rows = [...cpu1].map(([name, ms]) => [name, (ms - (cpu0.get(name) ?? 0)) / steps]).filter(([, ms]) => ms > 0)
    .sort((a, b) => b[1] - a[1]);
  const total = rows.reduce((a, [, ms]) => a + ms, 0);
  console.log(`${RUNS} runs × ${config.steps} steps, ${(config.steps * RUNS / result.seconds.reduce((a, b) => a + b, 0)).toFixed(1)} steps/s, ` +
    `${result.messages / config.steps} messages per step; CPU ms per step by thread (${total.toFixed(1)} in all):`);
  for (const [name, ms] of rows) console.log(`  ${ms.toFixed(2).padStart(7)}  ${name}`);
  if (cdp) {
    mkdirSync(OUT, { recursive: true });
    for (const t of threads) {
      const { profile } = await cdp.send("Profiler.stop", {}, t.session);
      const file = join(OUT, `${t.title.replace(/\W+/g, "_")}.cpuprofile`);
      writeFileSync(file, JSON.stringify(profile));
      printTop(t.title, profile, steps, file);
    }
    cdp.close();
  }
} finally {
  await lab.close();
}

// Self time per function (name, file, line), per step: its samples × the sampling interval (not the samples' time
// deltas: the first sample after a long sleep carries the whole sleep); idle left out.
function printTop(title, profile, steps, file) {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  for (const id of profile.samples) {
    const { functionName, url, lineNumber } = nodes.get(id).callFrame;
    if (functionName === "(idle)") continue;
    const key = `${functionName || "(anonymous)"} ${url.split("/").pop()}:${lineNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + INTERVAL_US / 1000);
  }
  const busy = [...self.values()].reduce((a, b) => a + b, 0);
  console.log(`${title}: ${(busy / steps).toFixed(2)} ms per step sampled busy (${file})`);
  for (const [key, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, TOP)) {
    console.log(`  ${(ms / steps).toFixed(3).padStart(7)}  ${key}`);
  }
}

// A DevTools-protocol connection to the browser (flat sessions): the lab's page and each of its Workers.
async function connect(profileDir) {
  const port = readFileSync(join(profileDir, "DevToolsActivePort"), "utf8").split("\n")[0];
  const { webSocketDebuggerUrl } = await (await fetch(`http://127.0.0.1:${port}/json/version`)).json();
  const socket = new WebSocket(webSocketDebuggerUrl);
  await new Promise((ok, fail) => { socket.once("open", ok); socket.once("error", fail); });
  let next = 1;
  const calls = new Map(), attached = [];
  socket.on("message", (data) => {
    const m = JSON.parse(data);
    if (calls.has(m.id)) {
      const { ok, fail } = calls.get(m.id);
      calls.delete(m.id);
      if (m.error) fail(new Error(`${m.error.message} (${m.error.code})`));
      else ok(m.result);
    } else if (m.method === "Target.attachedToTarget" && m.params.targetInfo.type === "worker") {
      attached.push({ session: m.params.sessionId, title: m.params.targetInfo.title });
    }
  });
  const send = (method, params = {}, sessionId = undefined) => new Promise((ok, fail) => {
    const id = next++;
    calls.set(id, { ok, fail });
    socket.send(JSON.stringify({ id, method, params, sessionId }));
  });
  return {
    send,
    close: () => socket.close(),
    async attachPageAndWorkers() {
      const { targetInfos } = await send("Target.getTargets");
      const page = targetInfos.find((t) => t.type === "page" && t.url.endsWith("/bench-blank"));
      const { sessionId } = await send("Target.attachToTarget", { targetId: page.targetId, flatten: true });
      // Auto-attach reports the page's existing dedicated Workers as attached targets.
      await send("Target.setAutoAttach", { autoAttach: true, waitForDebuggerOnStart: false, flatten: true }, sessionId);
      for (let waited = 0; attached.length < lab.ranks && waited < 5000; waited += 50) await new Promise((r) => setTimeout(r, 50));
      return [{ session: sessionId, title: "page" }, ...attached.sort((a, b) => a.title.localeCompare(b.title, "en", { numeric: true }))];
    },
  };
}
