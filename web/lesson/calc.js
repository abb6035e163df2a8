// calc.js — numbers in the prose are computed by the core, never typed in: an element
// <span data-calc="key"> gets its text from CALCS[key](core), CALCS being exported by the page's calcs.js.
// A missing key is an error the tests catch.
//
// The HTML already holds each number as the core computes it (for print and readers without JavaScript; the
// page tests check the two agree), so the computing is kept off the main thread: a Worker (calc_worker.js)
// instantiates the already compiled core, imports the page's calcs.js and sends back every text, which is
// written in one go. Some of the lab's numbers price 64-rank training steps: tens of milliseconds each.

// A section marked data-calc-lazy (Week 3's large-batch runs: 16 trainings) is left out of the page's start and
// filled when it comes near the screen (fillLazyCalcs); until then it shows the numbers the HTML holds, which the
// page tests check are the core's. Its attribute reads "done" once filled.
const eager = (root) => (el) => !el.parentElement?.closest("[data-calc-lazy]") || root.matches?.("[data-calc-lazy]");
const calcElements = (root) => [...root.querySelectorAll("[data-calc]")].filter(eager(root));

/** Fill every [data-calc] under `root` (not in a data-calc-lazy section of it) from `calcsUrl`, in a Worker. */
export async function fillCalcsInWorker(root, calcsUrl, wasmModule) {
  const elements = calcElements(root);
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

/** Each data-calc-lazy section of `root`, filled in a Worker when it comes within a screen of the viewport.
 *  compiled: Promise of the core's WebAssembly.Module. Resolves with the sections' promises (for tests). */
export function fillLazyCalcs(root, calcsUrl, compiled) {
  const sections = [...root.querySelectorAll("[data-calc-lazy]")];
  return sections.map((section) => new Promise((resolve, reject) => {
    const observer = new IntersectionObserver((entries) => {
      if (!entries.some((e) => e.isIntersecting)) return;
      observer.disconnect();
      compiled.then((module) => fillCalcsInWorker(section, calcsUrl, module))
        .then(() => { section.dataset.calcLazy = "done"; resolve(); }, reject);
    }, { rootMargin: "100% 0px" });
    observer.observe(section);
  }));
}

/** The same on the main thread (a page module that hands its CALCS object rather than its URL). */
export function fillCalcs(root, calcs, core) {
  const elements = calcElements(root);
  writeCalcs(elements, computeCalcs(calcs, [...new Set(elements.map((el) => el.dataset.calc))], core));
}

function writeCalcs(elements, values) {
  for (const el of elements) {
    const text = values[el.dataset.calc];
    if (el.textContent !== text) el.textContent = text;   // normally equal: nothing on screen changes
  }
}
