// pages.mjs — opening a lesson page in a test: wait until its module has mounted everything.
import { watch } from "./harness.mjs";

// Widgets and code editors are built when the learner comes near them (web/lesson/widgets_on_demand.js);
// a test that drives the page builds them all at once, as printing does. { onDemand: true } leaves them be.
// { watchCsp: true } collects the page's Content-Security-Policy violations in window.__csp ("directive blockedURI").
export async function openLesson(context, url, slug, { onDemand = false, watchCsp = false } = {}) {
  const page = await context.newPage();
  const problems = watch(page);
  page.on("dialog", (dialog) => dialog.accept());
  if (watchCsp) await page.addInitScript(watchViolations);
  await page.goto(`${url}${slug}/`);
  await page.waitForSelector("html[data-ready=true]", { timeout: 30000 });
  if (!onDemand) await page.evaluate(() => window.dsml.mountAll());
  return { page, problems };
}

export async function waitVerdict(page, id, cls, timeout = 30000) {
  await page.waitForSelector(`#ex-${id} .verdict.${cls}`, { timeout });
  return page.locator(`#ex-${id} .verdict`).innerText();
}

// The lab's training panel, and setting its controls by their labels ({ "Blocks L": "4", dp: "2", … }).
export const LAB_TRAIN = "[data-widget=train]";
export async function setLabControls(page, values) {
  for (const [label, value] of Object.entries(values)) {
    await page.locator(LAB_TRAIN).getByLabel(label, { exact: true }).selectOption(value);
  }
}

// An init script: every securitypolicyviolation of the page, from its first script on, in window.__csp.
export function watchViolations() {
  window.__csp = [];
  document.addEventListener("securitypolicyviolation", (e) => window.__csp.push(`${e.effectiveDirective} ${e.blockedURI}`));
}
