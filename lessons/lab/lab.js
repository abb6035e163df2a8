// lab.js — the parallelism lab's page module: its exercises, the numbers in its prose, its widgets and the
// live training panel (widgets/train_panel.js).
import { startLesson } from "../web/lesson/lesson_page.js";
import exercises from "./exercises.js";
import { mountTrainPanel } from "./widgets/train_panel.js";
import { mountMoves } from "./widgets/moves.js";
import { mountStepTimeline } from "./widgets/step_timeline.js";
import { mountMemoryBars } from "./widgets/memory_bars.js";
import { mountBubble } from "./widgets/bubble.js";

await startLesson({
  exercises,
  calcs: new URL("./calcs.js", import.meta.url),
  widgets: {
    "moves-dp": ({ figure }) => mountMoves(figure, { strategy: "dp" }),
    "timeline-dp": ({ figure, core }) => mountStepTimeline(figure, core, { strategy: "dp-bucketed", gpus: 8, link: "infiniband" }),
    "memory": ({ figure, core }) => mountMemoryBars(figure, core),
    "moves-zero": ({ figure }) => mountMoves(figure, { strategy: "zero3" }),
    "moves-tp": ({ figure }) => mountMoves(figure, { strategy: "tp" }),
    "bubble": ({ figure, core }) => mountBubble(figure, core),
    "moves-pp": ({ figure }) => mountMoves(figure, { strategy: "pp" }),
    "moves": ({ figure }) => mountMoves(figure, { strategy: "3d" }),
    "timeline": ({ figure, core }) => mountStepTimeline(figure, core, { strategy: "fsdp-tp", gpus: 64, link: "nvlink" }),
    "train": ({ figure, core, clusters }) => mountTrainPanel(figure, core, clusters),
  },
});
