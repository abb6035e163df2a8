// cluster_page.mjs — the Worker cluster fixture page in Chromium, for the cluster tests: the site assembled from
// the working tree, laid out as the source tree is, and the repo's tests/ beside it (so the fixture's source-tree
// imports ../../../web/… resolve, to the bundled Worker the pages use), served on 127.0.0.1.
//   const fx = await openClusterFixture();  await fx.run(size, code, options);  …  await fx.close();
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { startServer } from "../../scripts/serve.mjs";
import { assembleSite } from "../../scripts/assemble_site.mjs";
import { newBrowserContext } from "./harness.mjs";

const ROOT = new URL("../../", import.meta.url).pathname;

export async function openClusterFixture() {
  const siteDir = mkdtempSync(join(tmpdir(), "dsml-cluster-site-"));
  await assembleSite(siteDir, { requireWasm: true });
  symlinkSync(join(ROOT, "tests"), join(siteDir, "tests"));
  const { server, url } = await startServer(siteDir, 0);
  const browser = await newBrowserContext();
  const { context } = browser;
  const page = await context.newPage();
  const consoleErrors = [];
  const collect = (where) => (msg) => { if (msg.type() === "error") consoleErrors.push(`${where}: ${msg.text()}`); };
  page.on("console", collect("page"));
  page.on("pageerror", (err) => consoleErrors.push(`pageerror: ${err.message}`));
  page.on("worker", (worker) => worker.on("console", collect("worker")));
  await page.goto(`${url}tests/e2e/fixtures/cluster.html`);
  await page.waitForFunction(() => window.fixture);
  return {
    page, consoleErrors,
    // The RunResult of `code` on a cached cluster of `size` (options: cluster.js, plus core and stopAfterMs).
    run: (size, code, options = {}) => page.evaluate(([s, c, o]) => window.fixture.run(s, c, o), [size, code, options]),
    async close() {
      await browser.close();
      server.close();
      rmSync(siteDir, { recursive: true, force: true });
    },
  };
}
