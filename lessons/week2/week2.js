// week2.js — Week 2's page module: its exercises, the numbers in its prose, and its widgets.
import { startLesson } from "../web/lesson/lesson_page.js";
import exercises from "./exercises.js";
import { CALCS } from "./calcs.js";
import { mountAnimate } from "./widgets/animate.js";
import { mountBroadcast } from "./widgets/broadcast.js";
import { mountBusBandwidth } from "./widgets/busbw.js";
import { mountCostCounter, mountGatherScatter } from "./widgets/cost_table.js";
import { mountTimeVsP, mountTimeVsSize } from "./widgets/cost_curves.js";
import { mountTopology } from "./widgets/topology.js";

await startLesson({
  exercises,
  calcs: CALCS,
  mountWidgets({ core, clusters, widget }) {
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
  },
});
