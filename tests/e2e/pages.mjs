// pages.mjs — opening a lesson page in a test: wait until its module has mounted everything.
import { watch } from "./harness.mjs";

export async function openLesson(context, url, slug) {
  const page = await context.newPage();
  const problems = watch(page);
  page.on("dialog", (dialog) => dialog.accept());
  await page.goto(`${url}${slug}/`);
  await page.waitForSelector("html[data-ready=true]", { timeout: 30000 });
  return { page, problems };
}

export async function waitVerdict(page, id, cls, timeout = 30000) {
  await page.waitForSelector(`#ex-${id} .verdict.${cls}`, { timeout });
  return page.locator(`#ex-${id} .verdict`).innerText();
}
