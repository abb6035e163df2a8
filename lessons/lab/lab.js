// lab.js — the parallelism lab's page module: its exercises, the numbers in its prose, its widgets and the
// live training panel (widgets/train_panel.js).
import { startLesson } from "../web/lesson/lesson_page.js";
import exercises from "./exercises.js";
import { CALCS } from "./calcs.js";
import { mountTrainPanel } from "./widgets/train_panel.js";
import { mountMoves } from "./widgets/moves.js";
import { mountStepTimeline } from "./widgets/step_timeline.js";
import { mountMemoryBars } from "./widgets/memory_bars.js";
import { mountBubble } from "./widgets/bubble.js";

await startLesson({
  exercises,
  calcs: CALCS,
  mountWidgets({ core, clusters, widget }) {
    mountMoves(widget("moves-dp"), { strategy: "dp" });
    mountStepTimeline(widget("timeline-dp"), core, { strategy: "dp-bucketed", gpus: 8, link: "infiniband" });
    mountMemoryBars(widget("memory"), core);
    mountMoves(widget("moves-zero"), { strategy: "zero3" });
    mountMoves(widget("moves-tp"), { strategy: "tp" });
    mountBubble(widget("bubble"), core);
    mountMoves(widget("moves-pp"), { strategy: "pp" });
    mountMoves(widget("moves"), { strategy: "3d" });
    mountStepTimeline(widget("timeline"), core, { strategy: "fsdp-tp", gpus: 64, link: "nvlink" });
    mountTrainPanel(widget("train"), core, clusters);
  },
});
