// layout_search.js — the planner widget's "Find the fastest layouts that fit": core.searchLayouts (dsml/planner.h
// search_layouts: every t dividing a node, p dividing the layers, v ≤ 4, b ∈ {1, 2, 4, 8}, ZeRO 0 or 1, priced by
// plan_step) for the model, GPU, cluster and global batch chosen, as a table whose "Use" puts a layout into the
// controls. When the search finds nothing it says why, asking the core twice more:
//   1. the same search on a GPU with unlimited memory — a layout found there exists but does not fit (the one that
//      needs the least memory is named);
//   2. that search at a global batch every d·b divides (N·8: d divides the N GPUs, b divides 8) — when it finds
//      layouts and none of their d·b divides B, B is what refuses them (each replica must get whole micro-batches);
//   otherwise the core's reason for the simplest layout (t = p = 1, d = N).
//   mountSearch(container, core, settings, use) — settings() → the planner's current settings, use(layout) → apply.
import { formatBytes, formatCount, formatNumber, formatSeconds } from "../../../web/units.js";
import { GPUS_PER_NODE, clusterOf, modelAt } from "../planner_setup.js";

const UNLIMITED = 1e30;   // bytes: a GPU nothing overflows

function search(core, s, { globalBatch = s.B, hbmBytes, keep } = {}) {
  const cluster = clusterOf(core, s.gpu, s.nodes);
  if (hbmBytes !== undefined) cluster.gpu = { ...cluster.gpu, hbmBytes };
  return core.searchLayouts({ model: modelAt(core, s.model, s.seq), cluster, globalBatch, keep,
    contexts: s.c > 1 ? [1, s.c] : [1] });
}

// Why the search found nothing, in words (the core answers every question; see the header).
export function whyNothing(core, s) {
  const gpus = s.nodes * GPUS_PER_NODE;
  const where = `${formatCount(gpus)} ${s.gpu} GPUs`;
  const roomy = search(core, s, { hbmBytes: UNLIMITED, keep: 1 << 20 });
  if (roomy.length) {
    const r = roomy.reduce((a, b) => (b.memory.total < a.memory.total ? b : a));
    const L = r.layout;
    return `No layout of ${s.model} fits on ${where} with B = ${s.B}: the one of the search's layouts that needs the
      least memory (t = ${L.t}, p = ${L.p}, v = ${L.v}, d = ${L.d}, b = ${L.microBatch}, ZeRO ${L.zeroStage}, selective
      recomputation) needs ${formatBytes(r.memory.total)} per GPU, and a GPU has
      ${formatBytes(clusterOf(core, s.gpu, s.nodes).gpu.hbmBytes)}. More nodes, or full recomputation or a higher
      ZeRO stage set by hand above, shrink it.`;
  }
  const any = search(core, s, { globalBatch: gpus * 8, hbmBytes: UNLIMITED, keep: 1 << 20 });
  const ds = [...new Set(any.map((r) => r.layout.d))].sort((a, b) => a - b);
  if (ds.length && !any.some((r) => s.B % (r.layout.d * r.layout.microBatch) === 0)) {
    return `No layout admits a global batch of ${s.B} on ${where}: B must be divisible by d·b, so that each of the d
      replicas runs whole micro-batches of b sequences, and the layouts the search tries have d ∈ {${ds.join(", ")}}
      and b ∈ {1, 2, 4, 8} — none of their products divides ${s.B}. Choose a B that one of them divides.`;
  }
  try {
    core.planStep({ model: modelAt(core, s.model, s.seq), cluster: clusterOf(core, s.gpu, s.nodes),
      layout: { t: 1, p: 1, d: gpus, globalBatch: s.B } });
    return `No layout of ${s.model} is admissible on ${where}.`;
  } catch (e) {
    return `No layout of ${s.model} is admissible on ${where}: even the simplest (t = p = 1, d = ${gpus}) is refused
      — ${e.message}.`;
  }
}

function message(text, cls = "") {
  const p = document.createElement("p");
  p.className = cls;
  p.setAttribute("data-out", "search-message");
  p.textContent = text.replace(/\s+/g, " ");
  return p;
}

function layoutTable(found, s, use) {
  const table = document.createElement("table");
  table.innerHTML = `<caption>The fastest layouts of ${s.model} (sequence ${formatCount(s.seq)}) that fit on
    ${formatCount(s.nodes * GPUS_PER_NODE)} ${s.gpu} GPUs, B = ${s.B} (selective recomputation, sequence parallelism,
    overlapped data parallelism)</caption>
    <thead><tr><th scope="col">t</th><th scope="col">c</th><th scope="col">p</th><th scope="col">v</th>
    <th scope="col">d</th><th scope="col">e</th>
    <th scope="col">b</th><th scope="col">ZeRO</th><th scope="col">step</th><th scope="col">MFU</th>
    <th scope="col">memory</th><th scope="col"><span class="visually-hidden">load</span></th></tr></thead>`;
  const body = document.createElement("tbody");
  for (const r of found) {
    const tr = document.createElement("tr");
    const L = r.layout;
    tr.innerHTML = `<td>${L.t}</td><td>${L.c}</td><td>${L.p}</td><td>${L.v}</td><td>${L.d}</td><td>${L.e}</td>
      <td>${L.microBatch}</td>
      <td>${L.zeroStage}</td><td>${formatSeconds(r.time.total)}</td><td>${formatNumber(100 * r.mfu)}%</td>
      <td>${formatBytes(r.memory.total)}</td>`;
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = "Use";
    button.setAttribute("aria-label", `Use t ${L.t}, c ${L.c}, p ${L.p}, v ${L.v}, d ${L.d}, e ${L.e}, b ${L.microBatch}, ZeRO ${L.zeroStage}`);
    button.addEventListener("click", () => use(L));
    const td = document.createElement("td");
    td.append(button);
    tr.append(td);
    body.append(tr);
  }
  table.append(body);
  return table;
}

// `problem(s)` is the planner's own check of its controls ("" when they are whole numbers in range).
export function mountSearch(container, core, { settings, problem, use }) {
  const button = document.createElement("button");
  button.type = "button";
  button.textContent = "Find the fastest layouts that fit";
  const best = document.createElement("div");
  best.className = "scroll-x planner-best";
  best.setAttribute("aria-live", "polite");
  button.addEventListener("click", () => {
    const s = settings();
    best.replaceChildren();
    const bad = problem(s, ["nodes", "B", "seq"]);
    if (bad) {
      best.append(message(`The search needs a cluster and a batch: ${bad}.`, "notice warn"));
      return;
    }
    let found;
    try {
      found = search(core, s);
      if (!found.length) {
        best.append(message(whyNothing(core, s)));
        return;
      }
    } catch (e) {
      best.append(message(`The search cannot run: ${e.message}.`, "notice warn"));
      return;
    }
    best.append(layoutTable(found, s, use));
  });
  container.append(button, best);
}
