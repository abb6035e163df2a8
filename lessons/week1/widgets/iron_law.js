// iron_law.js — widget "iron-law": a step computes for C and communicates for M = α + β·G. Without overlap
// it lasts C + M, with perfect overlap max(C, M) (core.stepTime). Drawn as two bars of HTML, which re-theme
// and print like text.
import { controlRow, drawingBox, readout, slider } from "../../../web/ui/controls.js";
import { costSliders } from "../../../web/ui/cost_sliders.js";
import { formatBytes, formatSeconds } from "../../../web/units.js";

function bar(label, segments, scale) {
  const row = document.createElement("div");
  row.className = "bar-row";
  const name = document.createElement("span");
  name.className = "bar-label";
  name.textContent = label;
  const track = document.createElement("div");
  track.className = "bar-track";
  for (const { kind, start, length, text } of segments) {
    const seg = document.createElement("div");
    seg.className = `bar-seg bar-${kind}`;
    seg.style.left = `${(start / scale) * 100}%`;
    seg.style.width = `${Math.max((length / scale) * 100, 0.3)}%`;
    seg.title = text;
    track.append(seg);
  }
  row.append(name, track);
  return row;
}

export function mountIronLaw(figure, core) {
  const compute = slider({ label: "Compute C", min: 1e-3, max: 0.2, value: 0.03, log: true, format: formatSeconds, onInput: draw });
  const grad = slider({ label: "Gradient size G", min: 1e6, max: 1e10, value: 496e6, log: true, format: formatBytes, onInput: draw });
  const { alpha, bandwidth } = costSliders({ alpha: [1e-7, 1e-3, 5e-6], bandwidth: [1e8, 1e12, 12.5e9] }, draw);
  controlRow(figure, compute, grad, alpha, bandwidth);
  const out = readout(figure);
  const bars = drawingBox(out, "bars");

  function draw() {
    const c = compute.value, m = core.messageTime(alpha.value, 1 / bandwidth.value, grad.value);
    const serial = core.stepTime(c, m, 0), overlapped = core.stepTime(c, m, 1);
    const bound = m > c ? "communication-bound: the GPUs idle while gradients move" : "compute-bound: communication hides completely";
    out.innerHTML = `M = α + β·G = ${formatSeconds(m)}. Step without overlap <strong>${formatSeconds(serial)}</strong>, ` +
      `with perfect overlap <strong>${formatSeconds(overlapped)}</strong>: overlap saves min(C, M) = ` +
      `${formatSeconds(serial - overlapped)}. This step is ${bound}.`;
    const scale = serial;
    bars.replaceChildren(
      bar("no overlap", [{ kind: "compute", start: 0, length: c, text: `compute ${formatSeconds(c)}` },
        { kind: "comm", start: c, length: m, text: `communicate ${formatSeconds(m)}` }], scale),
      bar("overlap: compute", [{ kind: "compute", start: 0, length: c, text: `compute ${formatSeconds(c)}` }], scale),
      bar("overlap: comm", [{ kind: "comm", start: 0, length: m, text: `communicate ${formatSeconds(m)}` }], scale));
    bars.setAttribute("aria-label", `Without overlap the step is ${formatSeconds(serial)} (compute then communicate); ` +
      `with overlap ${formatSeconds(overlapped)} (both at once).`);
  }
  draw();
}
