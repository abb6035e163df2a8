// week5.js — Week 5's page module: its exercises, the numbers in its prose, and its widgets.
import { startLesson } from "../../web/lesson/lesson_page.js";
import exercises from "./exercises.js";

await startLesson({
  exercises,
  calcs: new URL("./calcs.js", import.meta.url),
  widgets: {
    "tp-split": { load: () => import("./widgets/tp_split.js"), mount: (w, { figure, core }) =>
      w.mountTpSplit(figure, core) },
    "pipeline-timeline": { load: () => import("./widgets/pipeline_timeline.js"), mount: (w, { figure, core }) =>
      w.mountPipelineTimeline(figure, core) },
    "pipeline-compare": { load: () => import("./widgets/pipeline_compare.js"), mount: (w, { figure, core }) =>
      w.mountPipelineCompare(figure, core) },
    "pipeline-workers": { load: () => import("./widgets/pipeline_workers.js"), mount: (w, { figure, core, clusters }) =>
      w.mountPipelineWorkers(figure, core, clusters) },
    "micro-batches": { load: () => import("./widgets/micro_batches.js"), mount: (w, { figure, core }) =>
      w.mountMicroBatches(figure, core) },
    "zero-memory": { load: () => import("./widgets/zero_memory.js"), mount: (w, { figure, core }) =>
      w.mountZeroMemory(figure, core) },
    "fsdp-prefetch": { load: () => import("./widgets/fsdp_prefetch.js"), mount: (w, { figure, core }) =>
      w.mountFsdpPrefetch(figure, core) },
    "experts": { load: () => import("./widgets/experts.js"), mount: (w, { figure, core }) =>
      w.mountExperts(figure, core) },
    "moe-balance": { load: () => import("./widgets/moe_balance.js"), mount: (w, { figure, core }) =>
      w.mountMoeBalance(figure, core) },
    "experts-workers": { load: () => import("./widgets/experts_workers.js"), mount: (w, { figure, core, clusters }) =>
      w.mountExpertsWorkers(figure, core, clusters) },
    "layouts": { load: () => import("./widgets/layouts.js"), mount: (w, { figure, core }) =>
      w.mountLayouts(figure, core) },
  },
});
