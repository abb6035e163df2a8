// calc.js — numbers in the prose are computed by the core, never typed in: an element
// <span data-calc="key"> gets its text from CALCS[key](core), CALCS being exported by the page's calcs.js.
// A missing key is an error the tests catch.
//
// The HTML already holds each number as the core computes it (for print and readers without JavaScript; the
// page tests check the two agree), so the computing is kept off the main thread: a Worker (calc_worker.js)
// instantiates the already compiled core, imports the page's calcs.js and sends back every text, which is
// written in one go. Some of the lab's numbers price 64-rank training steps: tens of milliseconds each.

/** Fill every [data-calc] under `root` from the module at `calcsUrl`, computed in a Worker. */
export async function fillCalcsInWorker(root, calcsUrl, wasmModule) {
  const elements = [...root.querySelectorAll("[data-calc]")];
  const keys = [...new Set(elements.map((el) => el.dataset.calc))];
  const worker = new Worker(new URL("./calc_worker.js", import.meta.url), { type: "module", name: "dsml calcs" });
  try {
    const reply = await new Promise((resolve, reject) => {
      worker.onmessage = (e) => resolve(e.data);
      worker.onerror = (e) => { e.preventDefault(); reject(new Error(`the calculation Worker failed: ${e.message}`)); };
      worker.postMessage({ calcsUrl: String(calcsUrl), keys, wasmModule });
    });
    if (reply.error) throw new Error(reply.error);
    writeCalcs(elements, reply.values);
  } finally {
    worker.terminate();
  }
}

/** Compute every key of `calcs` on `core` (here, or inside the Worker). Throws for a key `calcs` lacks. */
export function computeCalcs(calcs, keys, core) {
  const values = {};
  for (const key of keys) {
    const compute = calcs[key];
    if (!compute) throw new Error(`no calculation named "${key}"`);
    values[key] = compute(core);
  }
  return values;
}

/** The same on the main thread (a page module that hands its CALCS object rather than its URL). */
export function fillCalcs(root, calcs, core) {
  const elements = [...root.querySelectorAll("[data-calc]")];
  writeCalcs(elements, computeCalcs(calcs, [...new Set(elements.map((el) => el.dataset.calc))], core));
}

function writeCalcs(elements, values) {
  for (const el of elements) {
    const text = values[el.dataset.calc];
    if (el.textContent !== text) el.textContent = text;   // normally equal: nothing on screen changes
  }
}
