// local_cluster.mjs — a single-threaded stand-in for lessons/web/cluster/cluster.js, so Node tests can run exercise
// programs (reference solutions and the deliberately wrong ones) and hand their RunResult to a checker.
// Same ctx API and RunResult shape as lessons/web/README.md "The Worker cluster"; every rank is an async function in
// this thread (sharing one wasm core when the test passes `core`), and a message is delivered on a later
// turn of the event loop (setImmediate), so sends are asynchronous and buffered like the Workers'.
// No deadlock detection: a stuck run times out.
import { performance } from "node:perf_hooks";

// Message bytes as the cluster counts them: typed array/ArrayBuffer → byteLength; number → 8;
// anything else → UTF-8 length of JSON.stringify.
export function messageBytes(data) {
  if (ArrayBuffer.isView(data) || data instanceof ArrayBuffer) return data.byteLength;
  if (typeof data === "number") return 8;
  return Buffer.byteLength(JSON.stringify(data) ?? "", "utf8");
}

export async function runLocal(code, { ranks, inputs = [], timeoutMs = 5000, core = null }) {
  const main = new Function(`${code}\nreturn main;`)();
  const t0 = performance.now();
  const now = () => performance.now() - t0;                 // ms since the run started
  const mailboxes = Array.from({ length: ranks }, () => []); // arrived, not yet received
  const waiting = Array.from({ length: ranks }, () => null); // { from, tag, resolve }
  const trace = [];
  const logs = Array.from({ length: ranks }, () => []);
  const progress = Array.from({ length: ranks }, () => []);

  const deliver = (rank) => {
    const w = waiting[rank];
    if (!w) return;
    const i = mailboxes[rank].findIndex((m) => m.src === w.from && m.tag === w.tag);
    if (i < 0) return;
    const [m] = mailboxes[rank].splice(i, 1);
    waiting[rank] = null;
    m.record.recvTime = now() / 1000;
    w.resolve(m.data);
  };

  const contexts = Array.from({ length: ranks }, (_, rank) => ({
    rank, size: ranks, input: inputs[rank], core, now,
    log: (...args) => logs[rank].push(args.join(" ")),
    progress: (value) => progress[rank].push(structuredClone(value)),
    barrier: () => Promise.reject(new Error("barrier is not implemented in the local test cluster")),
    send(to, data, { tag = 0 } = {}) {
      if (!Number.isInteger(to) || to < 0 || to >= ranks || to === rank) throw new Error(`send: bad destination ${to}`);
      const record = { src: rank, dst: to, tag, bytes: messageBytes(data), sendTime: now() / 1000, recvTime: null };
      trace.push(record);
      const copy = structuredClone(data);
      setImmediate(() => { mailboxes[to].push({ src: rank, tag, data: copy, record }); deliver(to); });
    },
    recv(from, { tag = 0 } = {}) {
      if (!Number.isInteger(from) || from < 0 || from >= ranks || from === rank) {
        return Promise.reject(new Error(`recv: bad source ${from}`));
      }
      return new Promise((resolve) => { waiting[rank] = { from, tag, resolve }; deliver(rank); });
    },
  }));

  let timer;
  const timeout = new Promise((resolve) => { timer = setTimeout(() => resolve("timeout"), timeoutMs); });
  const settled = Promise.allSettled(contexts.map((ctx) => main(ctx)));
  const outcome = await Promise.race([settled, timeout]);
  clearTimeout(timer);
  const base = { elapsedMs: now(), logs, progress, trace, spans: [], error: null, deadlock: null, timeout: null };
  if (outcome === "timeout") {
    const running = waiting.flatMap((w, r) => (w ? [r] : []));
    return { ...base, status: "timeout", results: [], timeout: { ms: timeoutMs, running, message: `timed out after ${timeoutMs} ms` } };
  }
  const failed = outcome.findIndex((o) => o.status === "rejected");
  if (failed >= 0) {
    return { ...base, status: "error", results: [], error: { rank: failed, message: String(outcome[failed].reason?.message), line: null, column: null } };
  }
  return { ...base, status: "ok", results: outcome.map((o) => o.value) };
}
