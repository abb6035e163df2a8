// week5.js — Week 5's page module: its exercises, the numbers in its prose, and its widgets.
import { startLesson } from "../web/lesson/lesson_page.js";
import exercises from "./exercises.js";
import { mountTpSplit } from "./widgets/tp_split.js";
import { mountPipelineTimeline } from "./widgets/pipeline_timeline.js";
import { mountPipelineCompare } from "./widgets/pipeline_compare.js";
import { mountPipelineWorkers } from "./widgets/pipeline_workers.js";
import { mountMicroBatches } from "./widgets/micro_batches.js";
import { mountZeroMemory } from "./widgets/zero_memory.js";
import { mountFsdpPrefetch } from "./widgets/fsdp_prefetch.js";
import { mountExperts } from "./widgets/experts.js";
import { mountExpertsWorkers } from "./widgets/experts_workers.js";
import { mountLayouts } from "./widgets/layouts.js";

await startLesson({
  exercises,
  calcs: new URL("./calcs.js", import.meta.url),
  widgets: {
    "tp-split": ({ figure, core }) => mountTpSplit(figure, core),
    "pipeline-timeline": ({ figure, core }) => mountPipelineTimeline(figure, core),
    "pipeline-compare": ({ figure, core }) => mountPipelineCompare(figure, core),
    "pipeline-workers": ({ figure, core, clusters }) => mountPipelineWorkers(figure, core, clusters),
    "micro-batches": ({ figure, core }) => mountMicroBatches(figure, core),
    "zero-memory": ({ figure, core }) => mountZeroMemory(figure, core),
    "fsdp-prefetch": ({ figure, core }) => mountFsdpPrefetch(figure, core),
    "experts": ({ figure, core }) => mountExperts(figure, core),
    "experts-workers": ({ figure, core, clusters }) => mountExpertsWorkers(figure, core, clusters),
    "layouts": ({ figure, core }) => mountLayouts(figure, core),
  },
});
