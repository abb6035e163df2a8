// week3.js — Week 3's page module: its exercises, the numbers in its prose, and its widgets.
import { startLesson } from "../../web/lesson/lesson_page.js";
import { fillLazyCalcs } from "../../web/lesson/calc.js";
import { compileCore } from "../../web/wasm.js";
import exercises from "./exercises.js";

const calcs = new URL("./calcs.js", import.meta.url);
await startLesson({
  exercises,
  calcs,
  widgets: {
    "exactness": { load: () => import("./widgets/exactness.js"), mount: (w, { figure, core }) =>
      w.mountExactness(figure, core) },
    "dp-curves": { load: () => import("./widgets/dp_curves.js"), mount: (w, { figure, core, clusters }) =>
      w.mountDpCurves(figure, core, clusters) },
    "ddp-workers": { load: () => import("./widgets/ddp_workers.js"), mount: (w, { figure, core, clusters }) =>
      w.mountDdpWorkers(figure, core, clusters) },
    "ddp-price": { load: () => import("./widgets/ddp_price.js"), mount: (w, { figure, core }) =>
      w.mountDdpPrice(figure, core) },
    "partial-overlap": { load: () => import("./widgets/partial_overlap.js"), mount: (w, { figure, core }) =>
      w.mountPartialOverlap(figure, core) },
    "accumulation": { load: () => import("./widgets/accumulation.js"), mount: (w, { figure, core }) =>
      w.mountAccumulation(figure, core) },
    "unequal": { load: () => import("./widgets/exactness.js"), mount: (w, { figure, core }) =>
      w.mountUnequal(figure, core) },
    "large-batch": { load: () => import("./widgets/large_batch.js"), mount: (w, { figure, core }) =>
      w.mountLargeBatch(figure, core) },
    "scaling": { load: () => import("./widgets/scaling.js"), mount: (w, { figure, core }) =>
      w.mountScaling(figure, core) },
    "scaling-workers": { load: () => import("./widgets/scaling_workers.js"), mount: (w, { figure, core, clusters }) =>
      w.mountScalingWorkers(figure, core, clusters) },
    "comm-wall": { load: () => import("./widgets/comm_wall.js"), mount: (w, { figure, core }) =>
      w.mountCommWall(figure, core) },
  },
});
// Section #large-batch's numbers come from 16 training runs: computed when the reader nears that section, not before the page
// is ready (its spans hold the same numbers meanwhile; index.html marks the section data-calc-lazy).
fillLazyCalcs(document, calcs, compileCore()).forEach((p) => p.catch((err) => console.error(err)));
