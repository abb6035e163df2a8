// page_weight.mjs — what a lesson page costs to load: the wasm core raw and gzipped, and every byte the
// page transfers (gzip-compressed, as GitHub Pages serves it), measured in headless Chromium. A lesson page
// imports its widgets' modules when idle after load (window.dsml.widgetModules); they are counted: the number is
// what a page left open transfers, not only what it needs before first paint.
//   node bench/page_weight.mjs [path, default week1/]
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { openSite, SITE } from "../tests/e2e/harness.mjs";

const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;
const wasm = readFileSync(join(SITE, "wasm", "dsml.wasm"));
console.log(`dsml.wasm: ${kb(wasm.length)} raw, ${kb(gzipSync(wasm, { level: 9 }).length)} gzip -9`);

const site = await openSite();
for (const path of process.argv.slice(2).length ? process.argv.slice(2) : ["", "week1/"]) {
  const page = await site.context.newPage();
  let raw = 0, gz = 0, count = 0;
  page.on("response", async (res) => {
    try {
      const body = await res.body();
      raw += body.length; gz += gzipSync(body, { level: 6 }).length; count += 1;
    } catch { /* redirects have no body */ }
  });
  await page.goto(site.url + path, { waitUntil: "networkidle" });
  const lesson = await page.evaluate(() => document.querySelector("[data-widget], [data-exercise]") !== null);
  if (lesson) await page.waitForFunction(() => window.dsml?.widgetModules !== undefined, null, { timeout: 120000 });
  await page.evaluate(() => window.dsml?.widgetModules);
  await page.waitForLoadState("networkidle");
  await page.waitForTimeout(500);
  console.log(`/${path}: ${count} requests, ${kb(raw)} raw, ${kb(gz)} gzip`);
  await page.close();
}
await site.close();
