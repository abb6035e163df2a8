// Leaving a lesson while its widgets' modules are still loading. html[data-idle] is the page's signal that every
// module it loads has arrived (a test navigates away after it); a navigation before it cancels those loads, and the
// page test's watcher (harness.mjs watch) must not count the cancelled requests of the page left behind.
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { openSite, watch } from "./harness.mjs";

let site;
before(async () => { site = await openSite(); });
after(async () => { await site?.close(); });

test("leaving a page while its widget modules load: no problem recorded, and the next page reaches data-idle", async () => {
  const page = await site.context.newPage();
  const problems = watch(page);
  // Week 3's widget modules answered 1.5 s late, so that the navigation is certain to cut them off.
  let asked = 0;
  await page.route("**/lessons/week3/widgets/*.js", async (route) => {
    asked += 1;
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await route.continue().catch(() => {});   // the page has been left
  });
  await page.goto(`${site.url}week3/`);
  await page.waitForSelector("html[data-ready=true]");
  await page.waitForFunction(() => document.documentElement.dataset.idle === undefined);
  for (let i = 0; asked === 0 && i < 100; i += 1) await page.waitForTimeout(50);
  assert.ok(asked > 0, "the page asked for its widgets' modules");
  await page.goto(`${site.url}week4/`);
  await page.waitForSelector("html[data-idle=true]", { timeout: 60000 });
  assert.deepEqual(problems, []);
  await page.close();
});
