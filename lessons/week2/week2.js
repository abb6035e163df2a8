// week2.js — Week 2's page module: the lesson template, the core, the widgets and the exercises.
import { initLesson } from "../web/lesson.js";
import { loadCore } from "../web/wasm.js";
import { ClusterPool } from "../web/cluster_pool.js";
import { Progress } from "../web/progress.js";
import { mountExercises } from "../web/exercise.js";
import { showNotices } from "../web/notices.js";
import { fillCalcs } from "../web/calc.js";
import exercises from "./exercises.js";
import { CALCS } from "./calcs.js";
import { mountAnimate } from "./widgets/animate.js";
import { mountCostCounter, mountGatherScatter } from "./widgets/cost_table.js";
import { mountBroadcast } from "./widgets/broadcast.js";
import { mountTimeVsP, mountTimeVsSize } from "./widgets/cost_curves.js";
import { mountTopology } from "./widgets/topology.js";
import { mountBusBandwidth } from "./widgets/busbw.js";

initLesson();
const progress = new Progress();
showNotices(progress.notices);
const core = await loadCore();
const clusters = new ClusterPool();

fillCalcs(document, CALCS, core);
const widget = (name) => document.querySelector(`[data-widget="${name}"]`);
mountAnimate(widget("primitives"), core, clusters, { collective: "broadcast", algorithm: "linear", ranks: 4 });
mountCostCounter(widget("cost-counter"), core);
mountBroadcast(widget("broadcast"), core);
mountAnimate(widget("animate"), core, clusters, { collective: "all-reduce", algorithm: "ring", ranks: 4 });
mountAnimate(widget("recursive"), core, clusters, { collectives: ["all-reduce", "all-gather", "reduce-scatter"],
  only: ["recursive-doubling", "rabenseifner", "recursive-halving"], algorithm: "recursive-doubling", ranks: 6 });
mountGatherScatter(widget("gather-scatter"), core);
mountTimeVsSize(widget("time-vs-size"), core);
mountTimeVsP(widget("time-vs-p"), core);
mountTopology(widget("topology"), core);
mountBusBandwidth(widget("busbw"), core);
const controllers = mountExercises(document.querySelector("[data-exercises]"), exercises, { core, progress, clusters });

window.dsml = { core, progress, exercises: controllers };
document.documentElement.dataset.ready = "true";
