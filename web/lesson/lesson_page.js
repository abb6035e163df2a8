// lesson_page.js — what every lesson page module does, in order: the template (header, contents, math,
// prev/next), saved progress and its notices, the core, the numbers in the prose, the exercises, the page's own
// widgets. A page module only names its exercises, its calculations and how to mount each widget.
//
// The main thread stays free while the page loads (a phone runs it 4× slower than a laptop): the core is
// downloaded and compiled off the main thread from the first line, the prose's numbers (already in the HTML)
// are recomputed in a Worker (calc.js), each step below runs in its own task, widgets are built when the
// learner comes near them (widgets_on_demand.js; their modules are imported then, or once the page is idle) and
// code editors likewise (ui/editor.js). The math is drawn at build time (scripts/prerender_math.mjs).
// html[data-ready] is set once the exercises are live and the numbers checked; window.dsml.mountAll() builds
// every remaining widget and editor at once (tests, printing; the promise it returns resolves once the widgets
// whose modules were still loading and the editors, which load CodeMirror first, are built);
// window.dsml.widgetModules resolves once every widget's module is imported.
import { initLesson } from "./lesson.js";
import { makeScrollersFocusable, scrollersChanged } from "./scroll_focus.js";
import { compileCore, loadCore } from "../wasm.js";
import { ClusterPool } from "../cluster/cluster_pool.js";
import { Progress } from "../storage/progress.js";
import { mountOne } from "../exercise/exercise.js";
import { showNotices } from "./notices.js";
import { fillCalcs, fillCalcsInWorker } from "./calc.js";
import { registerOffline } from "./offline.js";
import { installPrint } from "../ui/print.js";
import { materializeEditors } from "../ui/editor.js";
import { mountOnDemand } from "./widgets_on_demand.js";
import { practiseLinks } from "./practise_links.js";

// A page module gives either `widgets` — { name: ({ figure, core, clusters }) => void }, each built on demand —
// or `mountWidgets({ core, clusters, widget })`, which builds them all at once (widget(name) is the figure with
// data-widget="name"). `calcs` is the URL of the page's calcs.js (computed in a Worker) or its CALCS object.
export async function startLesson({ exercises, calcs, widgets = {}, mountWidgets }) {
  const compiled = compileCore();   // streams and compiles off the main thread while the page sets up
  // Printing shows every widget: they are built before ui/print.js copies the charts (its listener comes later).
  let mountAll = () => {};
  addEventListener("beforeprint", () => mountAll());
  initLesson();
  const progress = new Progress();
  showNotices(progress.notices);
  await nextTask();
  const core = await loadCore();
  const numbers = calcs instanceof URL ? compiled.then((module) => fillCalcsInWorker(document, calcs, module))
    : Promise.resolve().then(() => fillCalcs(document, calcs, core));
  const clusters = new ClusterPool();
  await nextTask();
  // The exercises, one task each (as exercise.js's mountExercises would, all in one).
  const controllers = new Map();
  const container = document.querySelector("[data-exercises]");
  const links = practiseLinks(document);
  for (const [i, exercise] of exercises.entries()) {
    const controller = mountOne(exercise, i + 1, { core, progress, clusters });
    links.backLink(controller);   // before it is seen: nothing moves its answers once it is on the page
    container.append(controller.root);
    controllers.set(exercise.id, controller);
    await nextTask();
  }
  const context = { core, clusters };
  const onDemand = mountOnDemand(widgets, context, { onMount: scrollersChanged });
  if (mountWidgets) mountWidgets({ ...context, widget: figureOf });
  mountAll = async () => {
    await onDemand.mountAll();   // builds at once every widget whose module is loaded (printing cannot wait)
    await materializeEditors();
    makeScrollersFocusable();
  };
  links.skipLinks(controllers);
  installPrint();
  await numbers;
  // For the page tests and the curious: the live exercises and the core.
  // The widgets' modules are imported once the page is idle: a widget is then built at once when printing. When they
  // have all loaded, html[data-idle] says so: the page has nothing left to fetch (a test navigates away after it).
  const widgetModules = whenIdle().then(() => onDemand.preload())
    .then(() => { document.documentElement.dataset.idle = "true"; });
  window.dsml = { core, progress, exercises: controllers, mountAll, widgetModules };
  document.documentElement.dataset.ready = "true";
  scrollersChanged();   // the exercises' code and tables may scroll sideways
  registerOffline();
}

function whenIdle() {
  return new Promise((resolve) => (globalThis.requestIdleCallback ?? setTimeout)(() => resolve()));
}

function figureOf(name) {
  const figure = document.querySelector(`[data-widget="${name}"]`);
  if (!figure) throw new Error(`the page has no widget "${name}"`);
  return figure;
}

// A yield to the event loop, so the browser can paint and answer input between the steps of the start-up.
function nextTask() {
  return new Promise((resolve) => setTimeout(resolve));
}
