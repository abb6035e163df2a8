// calc.js — numbers in the prose are computed by the core, never typed in: an element
// <span data-calc="key"> gets its text from calcs[key](core). A missing key is an error the tests catch.
export function fillCalcs(root, calcs, core) {
  for (const el of root.querySelectorAll("[data-calc]")) {
    const compute = calcs[el.dataset.calc];
    if (!compute) throw new Error(`no calculation named "${el.dataset.calc}"`);
    el.textContent = compute(core);
  }
}
