// week2.js — Week 2's page module: its exercises, the numbers in its prose, and its widgets.
import { startLesson } from "../web/lesson/lesson_page.js";
import exercises from "./exercises.js";
import { mountAnimate } from "./widgets/animate.js";
import { mountBroadcast } from "./widgets/broadcast.js";
import { mountBusBandwidth } from "./widgets/busbw.js";
import { mountCostCounter, mountGatherScatter } from "./widgets/cost_table.js";
import { mountTimeVsP, mountTimeVsSize } from "./widgets/cost_curves.js";
import { mountTopology } from "./widgets/topology.js";

await startLesson({
  exercises,
  calcs: new URL("./calcs.js", import.meta.url),
  widgets: {
    "primitives": ({ figure, core, clusters }) =>
      mountAnimate(figure, core, clusters, { collective: "broadcast", algorithm: "linear", ranks: 4 }),
    "cost-counter": ({ figure, core }) => mountCostCounter(figure, core),
    "broadcast": ({ figure, core }) => mountBroadcast(figure, core),
    "animate": ({ figure, core, clusters }) =>
      mountAnimate(figure, core, clusters, { collective: "all-reduce", algorithm: "ring", ranks: 4 }),
    "recursive": ({ figure, core, clusters }) => mountAnimate(figure, core, clusters, {
      collectives: ["all-reduce", "all-gather", "reduce-scatter"],
      only: ["recursive-doubling", "rabenseifner", "recursive-halving"], algorithm: "recursive-doubling", ranks: 6 }),
    "gather-scatter": ({ figure, core }) => mountGatherScatter(figure, core),
    "time-vs-size": ({ figure, core }) => mountTimeVsSize(figure, core),
    "time-vs-p": ({ figure, core }) => mountTimeVsP(figure, core),
    "topology": ({ figure, core }) => mountTopology(figure, core),
    "busbw": ({ figure, core }) => mountBusBandwidth(figure, core),
  },
});
