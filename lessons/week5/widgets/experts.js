// experts.js — widget "experts" (section #experts): core.expertParallel — the MoE layer run across 4 expert-parallel ranks
// (all-to-all dispatch and combine) beside the single-device layer — with the learner's top-k, capacity factor, number
// of experts and batch; bars per expert: assignments kept, dropped, and the capacity (C per rank × 4 ranks).
import { controlRow, drawingBox, readout, select, slider } from "../../../web/ui/controls.js";
import { describeChart } from "../../../web/ui/charts.js";
import { formatBytes, formatCount, formatNumber } from "../../../web/units.js";
import { MOE_EXAMPLE } from "../scale_setup.js";

export function mountExperts(figure, core) {
  const topK = select({ label: "Router", value: String(MOE_EXAMPLE.moe.topK), options: [["1", "top-1 (Switch)"], ["2", "top-2 (GShard)"]], onChange: draw });
  const experts = select({ label: "Experts E", value: String(MOE_EXAMPLE.moe.experts), options: [4, 8, 16].map((e) => [String(e), String(e)]), onChange: draw });
  const factor = slider({ label: "Capacity factor c", min: 0.5, max: 3, step: 0.25, value: MOE_EXAMPLE.moe.capacityFactor, format: (x) => formatNumber(x), onInput: draw });
  const seed = slider({ label: "Batch (seed)", min: 1, max: 10, step: 1, value: MOE_EXAMPLE.seed, format: (x) => String(Math.round(x)), onInput: draw });
  controlRow(figure, topK, experts, factor, seed);
  const out = readout(figure);
  const bars = drawingBox(out, "moe-bars");

  function draw() {
    const req = { ...MOE_EXAMPLE, seed: Math.round(seed.value),
      moe: { ...MOE_EXAMPLE.moe, topK: Number(topK.value), experts: Number(experts.value), capacityFactor: factor.value } };
    const r = core.expertParallel(req);
    const cap = r.capacity * req.ranks, top = Math.max(cap, ...r.wanted);
    bars.replaceChildren(...r.wanted.map((w, e) => {
      const row = document.createElement("div");
      row.style.cssText = "display:flex;align-items:center;gap:0.5rem;margin:2px 0;font-size:0.85rem";
      const name = document.createElement("span");
      name.style.cssText = "width:5.5rem;flex:none";
      name.textContent = `expert ${e}`;
      const track = document.createElement("span");
      track.style.cssText = "position:relative;flex:1;height:1rem;border:1px solid var(--grid)";
      const kept = document.createElement("span");
      kept.style.cssText = `position:absolute;left:0;top:0;bottom:0;width:${(100 * r.load[e]) / top}%;background:var(--chart-1)`;
      const dropped = document.createElement("span");
      dropped.style.cssText = `position:absolute;top:0;bottom:0;left:${(100 * r.load[e]) / top}%;width:${(100 * (w - r.load[e])) / top}%;` +
        "background:repeating-linear-gradient(45deg,var(--chart-4) 0 3px,transparent 3px 6px)";
      const line = document.createElement("span");
      line.style.cssText = `position:absolute;top:-2px;bottom:-2px;left:${(100 * cap) / top}%;border-left:2px dashed var(--fg)`;
      track.append(kept, dropped, line);
      const n = document.createElement("span");
      n.style.cssText = "width:4.5rem;flex:none;text-align:right";
      n.textContent = w > r.load[e] ? `${r.load[e]} (−${w - r.load[e]})` : String(w);
      row.append(name, track, n);
      return row;
    }));
    bars.setAttribute("aria-label", `Assignments per expert: ${r.wanted.join(", ")}; capacity ${cap} per expert.`);
    out.innerHTML = `Capacity C = ⌈c·k·T/E⌉ = <strong>${r.capacity}</strong> per expert and rank (${cap} over ${req.ranks} ranks); ` +
      `<strong>${formatCount(r.dropped)}</strong> of ${req.batch * req.moe.topK} assignments dropped, ${formatCount(r.unroutedTokens)} ` +
      `tokens lost every choice. Each rank sends ${formatBytes(r.allToAllBytesPerRank)} per all-to-all (fp64). Outputs equal ` +
      `the single-device layer's to ${formatNumber(r.outputRelativeDifference, { digits: 2 })}, gradients to ` +
      `${formatNumber(r.gradientRelativeDifference, { digits: 2 })}. Solid: kept; hatched: dropped; dashed line: capacity.`;
    describeChart(figure, `The busiest expert is asked for ${Math.max(...r.wanted)} slots, the idlest for ${Math.min(...r.wanted)}; the capacity is ${cap}.`,
      [["expert", "wanted", "kept"], ...r.wanted.map((w, e) => [e, w, r.load[e]])]);
  }
  draw();
}
