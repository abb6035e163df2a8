// widget_probes.mjs — what the widget page tests read from a lesson page, written once: a widget's readout, a
// prose number, and a Worker-backed widget's run (core_tasks.recordRun: data-runs counts the answers it drew,
// data-run-ms says how long the last took).
export const readout = (page, widget) => page.locator(`[data-widget=${widget}] .widget-readout`).first().innerText();
export const calc = (page, key) => page.locator(`[data-calc="${key}"]`).first().innerText();
export const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
export const runs = (page, widget) => page.locator(`[data-widget=${widget}]`).getAttribute("data-runs");

// Wait until a Worker-backed widget has drawn (again): its count of drawn answers changes from `before`, or appears.
// Read `before` once the widget is idle — an answer still on its way counts as the next run.
export const ran = (page, widget, before = null, { timeout = 120000 } = {}) => page.waitForFunction(([w, b]) => {
  const n = document.querySelector(`[data-widget=${w}]`)?.dataset.runs;
  return n != null && n !== b;
}, [widget, before], { timeout });

// Press a Worker-backed widget's run button and wait until its readout has changed and it is done (no longer
// "Running…", its button enabled again): → the new readout.
export async function runAndRead(page, figure, button, { timeout = 120000 } = {}) {
  const before = await page.locator(`${figure} .widget-readout`).innerText();
  await page.locator(figure).getByRole("button", { name: button }).click();
  await page.waitForFunction(([sel, was]) => {
    const text = document.querySelector(`${sel} .widget-readout`).textContent;
    return text !== was && !/^Running/.test(text) && !document.querySelector(`${sel} button`).disabled;
  }, [figure, before], { timeout });
  return page.locator(`${figure} .widget-readout`).innerText();
}
