// The pages' Content-Security-Policy, in real Chromium: it is enforced — an inline script and an inline handler are
// refused and reported. (That nothing a lesson does trips it, its Workers and the learner's Blob module included, is
// checked on every lesson's visit in lessons.test.mjs.)
import { after, before, test } from "node:test";
import assert from "node:assert/strict";
import { openSite, watch } from "./harness.mjs";
import { watchViolations } from "./pages.mjs";

let site;
before(async () => { site = await openSite(); });
after(async () => { await site?.close(); });

async function openWatched(path) {
  const page = await site.context.newPage();
  const problems = watch(page);
  page.on("dialog", (d) => d.accept());
  await page.addInitScript(watchViolations);
  await page.goto(site.url + path);
  return { page, problems };
}

test("the policy is enforced: an inline script and an inline event handler are refused", async () => {
  const { page } = await openWatched("index.html");
  await page.waitForSelector("#weeks a");
  await page.evaluate(() => {
    const s = document.createElement("script");
    s.textContent = "window.__inline = true";
    document.body.append(s);
    const b = document.createElement("button");
    b.setAttribute("onclick", "window.__handler = true");
    document.body.append(b);
    b.click();
  });
  assert.equal(await page.evaluate(() => window.__inline ?? false), false);
  assert.equal(await page.evaluate(() => window.__handler ?? false), false);
  const seen = await page.evaluate(() => window.__csp);
  assert.equal(seen.filter((v) => v.startsWith("script-src")).length, 2, `violations reported: ${seen}`);
  await page.close();
});
