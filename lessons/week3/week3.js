// week3.js — Week 3's page module: its exercises, the numbers in its prose, and its widgets.
import { startLesson } from "../web/lesson/lesson_page.js";
import exercises from "./exercises.js";
import { mountExactness, mountUnequal } from "./widgets/exactness.js";
import { mountDpCurves } from "./widgets/dp_curves.js";
import { mountDdpWorkers } from "./widgets/ddp_workers.js";
import { mountDdpPrice } from "./widgets/ddp_price.js";
import { mountAccumulation } from "./widgets/accumulation.js";
import { mountLargeBatch } from "./widgets/large_batch.js";
import { mountScaling } from "./widgets/scaling.js";
import { mountScalingWorkers } from "./widgets/scaling_workers.js";
import { mountCommWall } from "./widgets/comm_wall.js";

await startLesson({
  exercises,
  calcs: new URL("./calcs.js", import.meta.url),
  widgets: {
    "exactness": ({ figure, core }) => mountExactness(figure, core),
    "dp-curves": ({ figure, core, clusters }) => mountDpCurves(figure, core, clusters),
    "ddp-workers": ({ figure, core, clusters }) => mountDdpWorkers(figure, core, clusters),
    "ddp-price": ({ figure, core }) => mountDdpPrice(figure, core),
    "accumulation": ({ figure, core }) => mountAccumulation(figure, core),
    "unequal": ({ figure, core }) => mountUnequal(figure, core),
    "large-batch": ({ figure, core }) => mountLargeBatch(figure, core),
    "scaling": ({ figure, core }) => mountScaling(figure, core),
    "scaling-workers": ({ figure, core, clusters }) => mountScalingWorkers(figure, core, clusters),
    "comm-wall": ({ figure, core }) => mountCommWall(figure, core),
  },
});
