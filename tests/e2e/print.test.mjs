// Printing, in real Chromium (headless page.pdf() fires beforeprint/afterprint like a browser's print dialog):
// charts print as images of what they show, redrawn in the light palette even in dark mode; a code editor prints
// its whole text, not only its scroll box; controls are hidden; the copies are gone afterwards. (The capstone's
// printed report — one page, its time-to-target table and charts — is week6_capstone.test.mjs's.)
//   DSML_SCREENSHOTS=dir also saves the PDF there (pdftoppm turns its pages into PNGs to look at).
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { openSite } from "./harness.mjs";
import { openLesson } from "./pages.mjs";

const SHOTS = process.env.DSML_SCREENSHOTS;
let site;
before(async () => { site = await openSite({ colorScheme: "dark" }); });
after(async () => { await site?.close(); });

// 80 numbered lines: far more than the editor's 32rem scroll box shows.
const LONG_CODE = `async function main(ctx) {\n${Array.from({ length: 78 }, (_, i) => `  // line ${i + 2}`).join("\n")}\n}\n`;

test("week 1 prints charts as light images, whole code, and no controls (dark mode on screen)", async () => {
  // Widgets and editors far from the viewport are not built yet: printing must build them.
  const { page, problems } = await openLesson(site.context, site.url, "week1", { onDemand: true });
  await page.evaluate((code) => window.dsml.exercises.get("w1-token-ring").setCode(code), LONG_CODE);
  // The widgets' modules are imported once the page is idle; printing (which cannot wait) then builds them at once.
  await page.evaluate(() => window.dsml.widgetModules);
  // The charts built so far drawn in their final state (their 250 ms animations ended at once).
  await page.evaluate(async () => {
    const url = performance.getEntriesByType("resource").map((e) => e.name).find((n) => /\/vendor\/chart\.js$/.test(n));
    const { Chart } = await import(url);
    for (const chart of Object.values(Chart.instances)) chart.update("none");
  });
  // What the page holds while the PDF is printed, seen from a listener that runs after print.js's.
  await page.evaluate(() => addEventListener("beforeprint", () => {
    window.__during = {
      canvases: document.querySelectorAll("canvas").length,
      images: document.querySelectorAll("img.print-copy").length,
      code: [...document.querySelectorAll("pre.print-copy")].map((p) => p.textContent),
      firstImage: document.querySelector("img.print-copy")?.src ?? "",
    };
  }));
  const pdf = await page.pdf({ format: "A4", printBackground: true });
  assert.ok(pdf.length > 100_000, `a real PDF (${pdf.length} bytes)`);
  const during = await page.evaluate(() => window.__during);
  assert.ok(during, "beforeprint fired for page.pdf()");
  assert.ok(during.canvases >= 2 && during.images === during.canvases, `every chart as an image: ${JSON.stringify(during)}`);
  assert.ok(during.code.includes(LONG_CODE), "the editor's whole text is printed");

  // In print media (the styles beforeprint cannot see yet): the copies show, the originals and controls do not.
  await page.emulateMedia({ media: "print" });
  const shown = await page.evaluate(() => {
    dispatchEvent(new Event("beforeprint"));
    const visible = (el) => el.getClientRects().length > 0;   // laid out: neither it nor an ancestor is display: none
    const all = (sel) => [...document.querySelectorAll(sel)].filter(visible);
    const result = {
      canvases: all("canvas").length, images: all("img.print-copy").length, editors: all(".cm-editor").length,
      code: all("pre.print-copy").length,
      controls: all("button, input[type=range], select").map((e) => `${e.outerHTML.slice(0, 80)} in .${e.parentElement.className}`),
    };
    dispatchEvent(new Event("afterprint"));
    return result;
  });
  await page.emulateMedia({ media: null });
  assert.equal(shown.canvases, 0, "no live canvas on paper");
  assert.equal(shown.images, during.images);
  assert.equal(shown.editors, 0, "no live editor on paper");
  assert.ok(shown.code >= 3, "every code editor printed as text");
  assert.deepEqual(shown.controls, [], "no controls on paper");

  // The chart image was drawn in the light palette: its mean brightness is high (a dark chart is mostly dark).
  const brightness = await page.evaluate(async (src) => {
    const img = new Image();
    img.src = src;
    await img.decode();
    const c = Object.assign(document.createElement("canvas"), { width: img.width, height: img.height });
    const g = c.getContext("2d");
    g.fillStyle = "#fff";   // transparent pixels are paper
    g.fillRect(0, 0, c.width, c.height);
    g.drawImage(img, 0, 0);
    const d = g.getImageData(0, 0, c.width, c.height).data;
    let sum = 0;
    for (let i = 0; i < d.length; i += 4) sum += (d[i] + d[i + 1] + d[i + 2]) / 3;
    return sum / (d.length / 4);
  }, during.firstImage);
  assert.ok(brightness > 200, `chart printed light (mean brightness ${brightness.toFixed(0)} of 255)`);

  // After printing the page is as it was.
  assert.equal(await page.locator(".print-copy").count(), 0);
  assert.equal(await page.locator(".has-print-copy").count(), 0);
  if (SHOTS) {
    mkdirSync(SHOTS, { recursive: true });
    await page.pdf({ path: join(SHOTS, "week1-print.pdf"), format: "A4", printBackground: true });
  }
  assert.deepEqual(problems, []);
  await page.close();
});
