// widgets_on_demand.js — a page's widgets are built when the learner comes near them, not all at load.
//
// Building a widget draws its charts and runs the core for its first state: from a few to tens of milliseconds
// each, more than a second for a whole page on a phone, which would keep the page from answering while it
// loads. Each widget is built in its own task when its figure comes within about a screen of the viewport
// (IntersectionObserver), so the page answers at once and a widget is ready before it is seen. mountAll()
// builds the rest at once: before printing (lesson_page.js) and for tests that drive every widget.
//   const widgets = mountOnDemand({ "tail-at-scale": ({ figure, core }) => mountTailAtScale(figure, core) },
//                                 { core, clusters });

const NEAR = "100% 0px";   // a screen above and below the viewport

/** `mounts[name]({ figure, ...context })` builds the figure with data-widget="name". Returns { mountAll, pending }. */
export function mountOnDemand(mounts, context, { onMount } = {}) {
  const pending = new Map();   // figure → () => void
  for (const [name, mount] of Object.entries(mounts)) {
    const figure = document.querySelector(`[data-widget="${name}"]`);
    if (!figure) throw new Error(`the page has no widget "${name}"`);
    pending.set(figure, () => { mount({ figure, ...context }); onMount?.(figure); });
  }
  const build = (figure) => {
    const mount = pending.get(figure);
    if (!mount) return;
    pending.delete(figure);
    observer?.unobserve(figure);
    mount();
  };
  // One task per widget: several figures coming into range together must not make one long task.
  const observer = globalThis.IntersectionObserver ? new IntersectionObserver((entries) => {
    for (const entry of entries) if (entry.isIntersecting) setTimeout(() => build(entry.target));
  }, { rootMargin: NEAR }) : null;
  for (const figure of pending.keys()) observer?.observe(figure);
  if (!observer) for (const figure of [...pending.keys()]) build(figure);
  return {
    mountAll() { for (const figure of [...pending.keys()]) build(figure); },
    get pending() { return pending.size; },
  };
}
