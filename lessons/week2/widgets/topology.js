// topology.js — widget "topology": one collective on a chosen network. The core simulates the schedule with
// link contention; the readout compares with the contention-free closed form and names the busiest link.
import { boxAfter, controlRow, readout, select, slider } from "../../../web/ui/controls.js";
import { costSliders } from "../../../web/ui/cost_sliders.js";
import { renderTimeline } from "../../../web/ui/timeline.js";
import { formatBytes, formatSeconds, plural } from "../../../web/units.js";
import { LINKS } from "../../../web/hardware.js";

const alphaBeta = (link) => ({ alpha: link.alpha, beta: link.beta });

const TOPOLOGIES = [["fully-connected", "switch (fully connected)"], ["ring", "ring"], ["torus2d", "2-D torus"],
  ["hierarchical", "nodes × devices (2 tiers)"]];

export function mountTopology(figure, core) {
  const topo = select({ label: "Topology", value: "hierarchical", options: TOPOLOGIES, onChange: draw });
  const algorithm = select({ label: "All-reduce", value: "ring", onChange: draw,
    options: ["naive", "ring", "recursive-doubling", "rabenseifner", "hierarchical"].map((a) => [a, a]) });
  const nodes = slider({ label: "Nodes (or torus rows)", min: 2, max: 8, step: 1, value: 2, format: String, onInput: draw });
  const perNode = slider({ label: "Devices per node (or torus columns)", min: 2, max: 8, step: 1, value: 4, format: String, onInput: draw });
  const { size } = costSliders({ size: [1e3, 1e9, 64e6] }, draw);
  controlRow(figure, topo, algorithm, nodes, perNode, size);
  const out = readout(figure);
  const box = boxAfter(out, "timeline");

  function draw() {
    const n = Math.round(nodes.value), d = Math.round(perNode.value), p = n * d, bytes = Math.round(size.value / (4 * p)) * 4 * p;
    // The course's links (web/hardware.js): NVLink inside a node, one InfiniBand NIC per node between nodes.
    const intra = alphaBeta(LINKS.nvlink), inter = alphaBeta(LINKS.infiniband);
    const topology = topo.value === "hierarchical" ? { kind: "hierarchical", nodes: n, perNode: d, intra, inter }
      : topo.value === "torus2d" ? { kind: "torus2d", rows: n, cols: d, ...inter } : { kind: topo.value, ...inter };
    try {
      const result = core.simulateCollective({ collective: "all-reduce", algorithm: algorithm.value, ranks: p, bytes,
        devicesPerNode: d, topology });
      const flat = core.collectiveCost("all-reduce", algorithm.value === "hierarchical" ? "ring" : algorithm.value,
        { ranks: p, bytes, alpha: inter.alpha, beta: inter.beta, gamma: 0 });
      out.innerHTML = `${p} ranks, ${formatBytes(bytes)}: simulated <strong>${formatSeconds(result.makespan)}</strong>, ` +
        `${plural(result.messages.length, "message")}. Busiest link: ${result.busiestLink.name}, busy ${formatSeconds(result.busiestLink.busy)}. ` +
        `(Closed form on a contention-free switch at the inter-node link speed: ${formatSeconds(flat)}.)`;
      renderTimeline(box, result.spans, { ranks: p, title: `All-reduce (${algorithm.value}) on ${topo.value}: simulated per-rank timeline` });
    } catch (err) {
      out.textContent = err.message;
      box.replaceChildren();
    }
  }
  draw();
}
