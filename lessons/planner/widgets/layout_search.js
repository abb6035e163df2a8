// layout_search.js — the planner widget's "Find the fastest layouts that fit": core.searchLayouts (dsml/planner.h
// search_layouts: every t dividing a node, p up to the layers, v ≤ 4, b ∈ {1, 2, 4, 8}, ZeRO 0 or 1, priced by
// plan_step) for the model, GPU, cluster and global batch chosen, as a table whose "Use" puts a layout into the
// controls. When the search finds nothing the core says why (core.searchRefusal: the rule every layout broke, such
// as a global batch no d·b divides, or how close the smallest layout came to fitting).
//   mountSearch(container, core, { settings, problem, use }) — settings() → the planner's current settings,
//   problem(settings, keys) → what is wrong with those controls ("" if nothing), use(layout) → apply a found layout.
import { formatBytes, formatCount, formatNumber, formatSeconds } from "../../../web/units.js";
import { GPUS_PER_NODE, clusterOf, modelAt } from "../planner_setup.js";

// The search's request for the planner's settings: its model (at the sequence chosen), GPU and cluster, global batch,
// the context-parallel size chosen (and 1), and the attention kernel and precision chosen.
const request = (core, s) => ({ model: modelAt(core, s.model, s.seq), cluster: clusterOf(core, s.gpu, s.nodes),
  globalBatch: s.B, contexts: s.c > 1 ? [1, s.c] : [1], attention: s.attention, precision: s.precision });

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
    overlapped data parallelism, ${s.attention} attention, ${s.precision})</caption>
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
      found = core.searchLayouts(request(core, s));
      if (!found.length) {
        const why = core.searchRefusal(request(core, s)) || "none fits";
        best.append(message(`The search found no layout of ${s.model} on ${formatCount(s.nodes * GPUS_PER_NODE)}
          ${s.gpu} GPUs with B = ${s.B}: ${why}.`));
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
