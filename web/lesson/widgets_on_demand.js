// widgets_on_demand.js — a page's widgets are built when the learner comes near them, not all at load.
//
// Building a widget draws its charts and runs the core for its first state: from a few to tens of milliseconds
// each, more than a second for a whole page on a phone, which would keep the page from answering while it
// loads. Each widget is built in its own task when its figure comes within about a screen of the viewport
// (IntersectionObserver), so the page answers at once and a widget is ready before it is seen. mountAll()
// builds the rest at once: before printing (lesson_page.js) and for tests that drive every widget.
//
// A widget's code need not be part of the page's first module graph either (a lesson's widgets and Chart.js are
// more script than the rest of the page): a widget given as { load, mount } has its module imported when its
// figure comes near, or by preload() (which the page calls once it is ready and idle, so that printing, which
// cannot wait, finds every module there), and is then built with mount(module, { figure, ...context }).
//   const widgets = mountOnDemand({
//     "tail-at-scale": ({ figure, core }) => mountTailAtScale(figure, core),
//     "alpha-beta": { load: () => import("../../lessons/week1/widgets/alpha_beta.js"),   // (a page writes its own path)
//                     mount: (w, { figure, core }) => w.mountAlphaBeta(figure, core) },
//   }, { core, clusters });

const NEAR = "100% 0px";   // a screen above and below the viewport

/**
 * `mounts[name]` builds the figure with data-widget="name": a function ({ figure, ...context }) => void, or
 * { load: () => Promise<module>, mount: (module, { figure, ...context }) => void }.
 * Returns { mountAll, preload, pending }: mountAll() builds every widget whose module is loaded at once and
 * resolves when the others are built too; preload() imports every widget's module without building it.
 */
export function mountOnDemand(mounts, context, { onMount } = {}) {
  const pending = new Map();    // figure → { load, mount } not built yet
  const building = new Set();   // promises of widgets waiting for their module
  for (const [name, given] of Object.entries(mounts)) {
    const figure = document.querySelector(`[data-widget="${name}"]`);
    if (!figure) throw new Error(`the page has no widget "${name}"`);
    pending.set(figure, typeof given === "function" ? { load: null, mount: (_, ctx) => given(ctx) } : given);
  }
  const build = (figure) => {
    const widget = pending.get(figure);
    if (!widget) return;
    pending.delete(figure);
    observer?.unobserve(figure);
    const mount = (module) => { widget.mount(module, { figure, ...context }); onMount?.(figure); };
    const module = widget.load && loaded(widget.load);
    if (!module || module.value) { mount(module?.value); return; }
    const built = module.promise.then(mount);
    building.add(built);
    // A widget that fails to load or build is reported as an uncaught error (and mountAll() rejects).
    built.then(() => building.delete(built), (err) => { building.delete(built); globalThis.reportError?.(err); });
  };
  // One task per widget: several figures coming into range together must not make one long task.
  const observer = globalThis.IntersectionObserver ? new IntersectionObserver((entries) => {
    for (const entry of entries) if (entry.isIntersecting) setTimeout(() => build(entry.target));
  }, { rootMargin: NEAR }) : null;
  for (const figure of pending.keys()) observer?.observe(figure);
  if (!observer) for (const figure of [...pending.keys()]) build(figure);
  return {
    mountAll() {
      for (const figure of [...pending.keys()]) build(figure);
      return Promise.all(building);
    },
    preload() {
      return Promise.all([...pending.values()].filter((w) => w.load).map((w) => loaded(w.load).promise));
    },
    get pending() { return pending.size + building.size; },
  };
}

// Each loader's module, imported once: { promise, value } (value set once it has loaded).
const modules = new WeakMap();

function loaded(load) {
  let module = modules.get(load);
  if (!module) {
    module = { value: null };
    module.promise = load().then((value) => { module.value = value; return value; });
    modules.set(load, module);
  }
  return module;
}
