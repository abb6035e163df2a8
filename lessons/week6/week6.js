// week6.js — Week 6's page module: its exercises, the numbers in its prose, and its widgets.
import { startLesson } from "../web/lesson/lesson_page.js";
import exercises from "./exercises.js";
import { mountFleet } from "./widgets/fleet.js";
import { mountCheckpointOverhead } from "./widgets/ckpt_overhead.js";
import { mountCheckpointProgress } from "./widgets/ckpt_progress.js";
import { mountElastic } from "./widgets/elastic.js";
import { mountCompressionCurves } from "./widgets/compression_curves.js";
import { mountCompressionPareto } from "./widgets/compression_pareto.js";
import { mountCompressionWire } from "./widgets/compression_wire.js";
import { mountFailureLive } from "./widgets/failure_live.js";
import { mountElasticLive } from "./widgets/elastic_live.js";
import { mountCompressionLive } from "./widgets/compression_live.js";
import { mountCapstone } from "./widgets/capstone.js";

await startLesson({
  exercises,
  calcs: new URL("./calcs.js", import.meta.url),
  widgets: {
    "fleet": ({ figure, core }) => mountFleet(figure, core),
    "ckpt-overhead": ({ figure }) => mountCheckpointOverhead(figure),
    "ckpt-progress": ({ figure }) => mountCheckpointProgress(figure),
    "elastic": ({ figure }) => mountElastic(figure),
    "compression-curves": ({ figure }) => mountCompressionCurves(figure),
    "compression-pareto": ({ figure }) => mountCompressionPareto(figure),
    "compression-wire": ({ figure, core }) => mountCompressionWire(figure, core),
    "failure-live": ({ figure, core, clusters }) => mountFailureLive(figure, core, clusters),
    "elastic-live": ({ figure, core, clusters }) => mountElasticLive(figure, core, clusters),
    "compression-live": ({ figure, core, clusters }) => mountCompressionLive(figure, core, clusters),
    "capstone": ({ figure }) => mountCapstone(figure),
  },
});
