// lesson_page.js — what every lesson page module does, in order: the template (header, contents, math,
// prev/next), saved progress and its notices, the core, the numbers in the prose, the page's own widgets,
// and the exercises. A page module only names its exercises, its calculations and how to mount its widgets.
import { initLesson } from "./lesson.js";
import { loadCore } from "../wasm.js";
import { ClusterPool } from "../cluster/cluster_pool.js";
import { Progress } from "../storage/progress.js";
import { mountExercises } from "../exercise/exercise.js";
import { showNotices } from "./notices.js";
import { fillCalcs } from "./calc.js";
import { registerOffline } from "./offline.js";
import { installPrint } from "../ui/print.js";

// mountWidgets({ core, clusters, widget }) — widget(name) is the figure with data-widget="name".
export async function startLesson({ exercises, calcs, mountWidgets }) {
  initLesson();
  installPrint();
  const progress = new Progress();
  showNotices(progress.notices);
  const core = await loadCore();
  const clusters = new ClusterPool();
  fillCalcs(document, calcs, core);
  const widget = (name) => {
    const figure = document.querySelector(`[data-widget="${name}"]`);
    if (!figure) throw new Error(`the page has no widget "${name}"`);
    return figure;
  };
  mountWidgets({ core, clusters, widget });
  const controllers = mountExercises(document.querySelector("[data-exercises]"), exercises, { core, progress, clusters });
  // For the page tests and the curious: the live exercises and the core.
  window.dsml = { core, progress, exercises: controllers };
  document.documentElement.dataset.ready = "true";
  registerOffline();
}
