// week2.js — Week 2's page module: its exercises, the numbers in its prose, and its widgets.
import { startLesson } from "../../web/lesson/lesson_page.js";
import exercises from "./exercises.js";

await startLesson({
  exercises,
  calcs: new URL("./calcs.js", import.meta.url),
  widgets: {
    "primitives": { load: () => import("./widgets/animate.js"), mount: (w, { figure, core, clusters }) =>
      w.mountAnimate(figure, core, clusters, { collective: "broadcast", algorithm: "linear", ranks: 4 }) },
    "cost-counter": { load: () => import("./widgets/cost_table.js"), mount: (w, { figure, core }) =>
      w.mountCostCounter(figure, core) },
    "broadcast": { load: () => import("./widgets/broadcast.js"), mount: (w, { figure, core }) =>
      w.mountBroadcast(figure, core) },
    "animate": { load: () => import("./widgets/animate.js"), mount: (w, { figure, core, clusters }) =>
      w.mountAnimate(figure, core, clusters, { collective: "all-reduce", algorithm: "ring", ranks: 4 }) },
    "recursive": { load: () => import("./widgets/animate.js"), mount: (w, { figure, core, clusters }) =>
      w.mountAnimate(figure, core, clusters, {
      collectives: ["all-reduce", "all-gather", "reduce-scatter"],
      only: ["recursive-doubling", "rabenseifner", "recursive-halving"], algorithm: "recursive-doubling", ranks: 6 }) },
    "gather-scatter": { load: () => import("./widgets/cost_table.js"), mount: (w, { figure, core }) =>
      w.mountGatherScatter(figure, core) },
    "time-vs-size": { load: () => import("./widgets/cost_curves.js"), mount: (w, { figure, core }) =>
      w.mountTimeVsSize(figure, core) },
    "time-vs-p": { load: () => import("./widgets/cost_curves.js"), mount: (w, { figure, core }) =>
      w.mountTimeVsP(figure, core) },
    "topology": { load: () => import("./widgets/topology.js"), mount: (w, { figure, core }) =>
      w.mountTopology(figure, core) },
    "busbw": { load: () => import("./widgets/busbw.js"), mount: (w, { figure, core }) =>
      w.mountBusBandwidth(figure, core) },
  },
});
