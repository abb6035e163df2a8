// The cluster guide (mpi/README.md as a page of the site) in real Chromium: reached from the index, Weeks 1 and 2
// and the lab; its header, theme toggle and contents work; no console error, no sideways scrolling at 360 px; axe
// clean in light and dark.
//   node --test --test-concurrency=1 tests/e2e/guide.test.mjs
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { axeViolations, openSite, watch } from "./harness.mjs";

let site;
before(async () => { site = await openSite(); });
after(async () => { await site?.close(); });

test("the index, Weeks 1 and 2 and the lab link to the guide, and the link opens it", async () => {
  for (const from of ["index.html", "week1/index.html", "week2/index.html", "lab/index.html"]) {
    const page = await site.context.newPage();
    await page.goto(new URL(from, site.url).href, { waitUntil: "domcontentloaded" });
    const link = page.locator('a[href$="cluster/index.html"]');
    assert.equal(await link.count(), 1, `${from} links to the guide once`);
    await Promise.all([page.waitForURL(/\/cluster\/index\.html$/), link.click()]);
    assert.equal(await page.locator("h1").innerText(), "Beyond the browser: run it on a cluster");
    await page.close();
  }
});

for (const colorScheme of ["light", "dark"]) {
  test(`the guide in ${colorScheme}: contents, header, 360 px, axe`, async () => {
    const page = await site.context.newPage();
    await page.emulateMedia({ colorScheme });
    const problems = watch(page);
    await page.setViewportSize({ width: 360, height: 800 });
    await page.goto(new URL("cluster/index.html", site.url).href, { waitUntil: "networkidle" });
    const entries = await page.locator("nav.toc li a").allInnerTexts();
    assert.deepEqual(entries.slice(0, 3), ["On one machine", "On a real cluster", "At simulated scale: SimGrid SMPI"]);
    await page.locator("nav.toc li a", { hasText: "Measured" }).click();
    assert.match(page.url(), /#measured$/);
    assert.equal(await page.locator("header.site-header .theme-toggle").count(), 1);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > document.documentElement.clientWidth);
    assert.equal(overflow, false, "no sideways scrolling at 360 px");
    assert.deepEqual(await axeViolations(page), []);
    assert.deepEqual(problems, []);
    await page.close();
  });
}
