// The lab's measured timeline letters each kind of compute (web/ui/phase_timeline.js): a ZB-H1 run shows
// W (weight-gradient) boxes beside F and B (lettered W when wide enough), an interleaved run shows no W (and B is then the whole backward), the legend lists exactly the kinds of work
// present, and a span that carries its chunk (the lab's interleaved runs) gets it as a subscript.
//   node --test --test-concurrency=1 tests/e2e/lab_timeline.test.mjs
import { after, before, describe, test } from "node:test";
import assert from "node:assert/strict";
import { openSite } from "./harness.mjs";
import { LAB_TRAIN, openLesson, setLabControls } from "./pages.mjs";

let site;
before(async () => { site = await openSite(); });
after(async () => { await site?.close(); });

const FIG = LAB_TRAIN;
// The largest model with the fewest micro-batches: each operation (4 blocks × 32 rows) is long enough against the
// Workers' message waits, even on a loaded machine, to be wide enough for its letter.
const RUN = { "Blocks L": "8", "Width D": "64", "Hidden F": "256", "Batch B": "64", dp: "1", tp: "1", pp: "2",
  "Micro-batches m": "2", Steps: "20" };

async function trainWith(page, values) {
  await setLabControls(page, values);
  await page.locator(FIG).getByRole("button", { name: "Train" }).click();
  await page.waitForFunction((sel) => /steps\/s|could not|threw|Deadlock|watchdog/.test(
    document.querySelector(`${sel} .widget-readout`)?.textContent ?? ""), FIG, { timeout: 120000 });
  assert.match(await page.locator(`${FIG} .widget-readout`).first().innerText(), /the same training/);
  const svg = page.locator(`${FIG} .train-timeline svg`);
  // Drawn to its box's width (it was once drawn while hidden, at a default 640 px that overflowed a phone).
  const [drawn, box] = [Number(await svg.getAttribute("width")), await page.locator(`${FIG} .train-timeline`).evaluate((e) => e.clientWidth)];
  assert.equal(drawn, Math.max(280, box), `timeline ${drawn} px in a ${box} px box`);
  return {
    legend: await svg.locator("text.ph-legend").allTextContents(),
    letters: await svg.locator("text.ph-span-label").allTextContents(),
    chunks: await svg.locator("text.ph-span-label tspan.ph-chunk").allTextContents(),
    spanChunks: await svg.locator("rect.ph-span.ph-compute title").allTextContents(),
    kinds: await svg.locator("rect.ph-span.ph-compute").evaluateAll((rects) =>
      [...new Set(rects.map((r) => [...r.classList].find((c) => c.startsWith("ph-op-")) ?? "none"))].sort()),
  };
}

// Draws `spans` with renderPhases in an 800 px box of the lab page: each letter's text, chunk subscript, row (its y)
// and drawn extent.
function drawnLetters(page, spans, ranks) {
  return page.evaluate(async ([spans, ranks]) => {
    const { renderPhases } = await import(new URL("../../web/ui/phase_timeline.js", location.href).href)   // relative to the lab page, not this file;
    const box = document.createElement("div");
    box.style.width = "800px";
    document.querySelector("main").append(box);
    renderPhases(box, spans, { ranks });
    const letters = [...box.querySelectorAll("text.ph-span-label")].map((t) => {
      const b = t.getBBox();
      return { text: t.firstChild.textContent, chunk: t.querySelector("tspan")?.textContent ?? null, y: t.getAttribute("y"), x: b.x, width: b.width };
    });
    box.remove();
    return letters;
  }, [spans, ranks]);
}

describe("the lab's phase timeline", () => {
  test("ZB-H1: W boxes, lettered W, beside F and B; the legend names each kind of work", async () => {
    const { page, problems } = await openLesson(site.context, site.url, "lab");
    const { legend, letters, kinds } = await trainWith(page, { ...RUN, Schedule: "zb-h1" });
    // (The loss kernel is often shorter than a Worker's timer tick and then leaves no span, so L is not required.)
    for (const item of ["F forward", "B backward (input gradient)", "W weight gradient", "O optimizer",
      "all-reduce", "send", "idle (bubble or waiting)"]) assert.ok(legend.includes(item), `legend has “${item}”: ${legend.join(" | ")}`);
    for (const k of ["ph-op-F", "ph-op-B", "ph-op-W", "ph-op-O"]) assert.ok(kinds.includes(k), `${k} in ${kinds}`);
    // The legend lists the kinds of work present, and only those.
    const named = { F: "F forward", B: "B backward (input gradient)", W: "W weight gradient", R: "R recompute", L: "L loss", O: "O optimizer" };
    assert.deepEqual(legend.filter((t) => /^[FBWRLO] /.test(t)),
      Object.entries(named).filter(([op]) => kinds.includes(`ph-op-${op}`)).map(([, t]) => t));
    // Letters go where a run of work is wide enough for one (~7 px a letter), which depends on the machine's timing:
    // a W box that wide must carry its W (a run is at least as wide as its widest box).
    const widestW = await page.locator(`${FIG} .train-timeline svg rect.ph-span.ph-op-W`).evaluateAll((rects) =>
      Math.max(0, ...rects.map((r) => Number(r.getAttribute("width")))));
    if (widestW >= 10) assert.ok(letters.includes("W"), `a W label among ${[...new Set(letters)]} (widest W box ${widestW} px)`);
    assert.deepEqual(letters.filter((t) => !["F", "B", "W", "R", "L", "O", "AR", "AG", "RS", "S"].includes(t)), []);
    // Each kind has its own shade.
    const shades = await page.locator(`${FIG} .train-timeline svg rect.ph-span.ph-compute`).evaluateAll((rects) =>
      Object.fromEntries(rects.map((r) => [[...r.classList].find((c) => c.startsWith("ph-op-")) ?? "none", r.getAttribute("fill-opacity")])));
    assert.equal(new Set(["ph-op-F", "ph-op-B", "ph-op-W"].map((k) => shades[k])).size, 3, JSON.stringify(shades));
    // The note says a collective's box includes waiting for its slowest member, and names the cores when the
    // Workers outnumber them (this run has 2 Workers).
    const cores = await page.evaluate(() => navigator.hardwareConcurrency);
    const note = await page.locator(`${FIG} .train-timeline`).innerText();
    assert.match(note, /a collective's box lasts until its slowest member has joined/);
    assert.equal(/2 Workers share \d+ cores?, so much of it is a member waiting for a core/.test(note), cores < 2, note);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test("interleaved 1F1B: F and B but no W, and the legend leaves W out", async () => {
    const { page, problems } = await openLesson(site.context, site.url, "lab");
    const { legend, letters, kinds, chunks, spanChunks } = await trainWith(page, { ...RUN, Schedule: "interleaved" });
    // Each compute span names its model chunk (pp 2 × v 2 = chunks 0–3), and lettered runs carry it as a subscript.
    const named = new Set(spanChunks.map((t) => t.match(/, chunk (\d+)/)?.[1]).filter(Boolean));
    assert.deepEqual([...named].sort(), ["0", "1", "2", "3"], spanChunks.slice(0, 4).join(" | "));
    assert.ok(chunks.length > 0 && chunks.every((c) => /^[0-3]$/.test(c)), `chunk subscripts: ${chunks}`);
    assert.ok(!legend.includes("all-to-all"), "a dense run's legend has no all-to-all");
    // With no W, B is the whole backward, and the legend says so.
    assert.ok(legend.includes("F forward") && legend.includes("B backward"), legend.join(" | "));
    assert.ok(!legend.includes("W weight gradient"), legend.join(" | "));
    assert.ok(!kinds.includes("ph-op-W") && !letters.includes("W"), `${kinds} ${letters}`);
    assert.ok(kinds.includes("ph-op-F") && kinds.includes("ph-op-B"), `${kinds}`);
    assert.ok(letters.some((t) => /^[FB][0-3]$/.test(t)), `an F or B label with its chunk among ${[...new Set(letters)]}`);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test("a span that carries its chunk is lettered with the chunk as a subscript", async () => {
    const { page, problems } = await openLesson(site.context, site.url, "lab");
    const letters = await drawnLetters(page, [
      { rank: 0, kind: "compute", label: "x·W_inᵀ, act", chunk: 2, start: 0, end: 1 },
      { rank: 0, kind: "compute", label: "W: dW_out, dW_in", chunk: 0, start: 1, end: 2 },
      { rank: 1, kind: "compute", label: "B: dH, dX", start: 0, end: 2 },
    ], 2);
    assert.deepEqual(letters.map((l) => [l.text, l.chunk]), [["F", "2"], ["W", "0"], ["B", null]]);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test("letters of overlapping spans on one row (all-reduces in flight together) never overlap", async () => {
    const { page, problems } = await openLesson(site.context, site.url, "lab");
    // A bucketed DDP's comm lane: each bucket's all-reduce starts before the previous one ends. Starts 1 % of the
    // step apart: their centres ~7 px apart, closer than an "AR" is wide.
    const spans = [0, 1, 2, 3, 4, 5].map((i) => ({ rank: 0, kind: "all-reduce", start: 0.01 * i, end: 0.01 * i + 0.3 }));
    const letters = await drawnLetters(page, [...spans, { rank: 1, kind: "compute", label: "B: dH, dX", start: 0, end: 1 }], 2);
    const row0 = letters.filter((l) => l.y === letters[0].y).sort((a, b) => a.x - b.x);
    assert.ok(row0.length >= 1, JSON.stringify(letters));
    for (let i = 1; i < row0.length; i++) assert.ok(row0[i].x >= row0[i - 1].x + row0[i - 1].width, JSON.stringify(row0));
    assert.deepEqual(problems, []);
    await page.close();
  });
});
