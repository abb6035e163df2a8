// week6.js — Week 6's page module: its exercises, the numbers in its prose, and its widgets.
import { startLesson } from "../../web/lesson/lesson_page.js";
import exercises from "./exercises.js";

await startLesson({
  exercises,
  calcs: new URL("./calcs.js", import.meta.url),
  widgets: {
    "fleet": { load: () => import("./widgets/fleet.js"), mount: (w, { figure, core }) => w.mountFleet(figure, core) },
    "ckpt-overhead": { load: () => import("./widgets/ckpt_overhead.js"), mount: (w, { figure }) =>
      w.mountCheckpointOverhead(figure) },
    "ckpt-progress": { load: () => import("./widgets/ckpt_progress.js"), mount: (w, { figure }) =>
      w.mountCheckpointProgress(figure) },
    "elastic": { load: () => import("./widgets/elastic.js"), mount: (w, { figure }) => w.mountElastic(figure) },
    "compression-curves": { load: () => import("./widgets/compression_curves.js"), mount: (w, { figure }) =>
      w.mountCompressionCurves(figure) },
    "compression-pareto": { load: () => import("./widgets/compression_pareto.js"), mount: (w, { figure }) =>
      w.mountCompressionPareto(figure) },
    "compression-wire": { load: () => import("./widgets/compression_wire.js"), mount: (w, { figure, core }) =>
      w.mountCompressionWire(figure, core) },
    "failure-live": { load: () => import("./widgets/failure_live.js"), mount: (w, { figure, core, clusters }) =>
      w.mountFailureLive(figure, core, clusters) },
    "elastic-live": { load: () => import("./widgets/elastic_live.js"), mount: (w, { figure, core, clusters }) =>
      w.mountElasticLive(figure, core, clusters) },
    "compression-live": { load: () => import("./widgets/compression_live.js"), mount: (w, { figure, core, clusters }) =>
      w.mountCompressionLive(figure, core, clusters) },
    "capstone": { load: () => import("./widgets/capstone.js"), mount: (w, { figure }) => w.mountCapstone(figure) },
  },
});
