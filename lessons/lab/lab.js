// lab.js — the parallelism lab's page module: its exercises, the numbers in its prose, its widgets and the
// live training panel (widgets/train_panel.js).
import { startLesson } from "../web/lesson/lesson_page.js";
import exercises from "./exercises.js";

await startLesson({
  exercises,
  calcs: new URL("./calcs.js", import.meta.url),
  widgets: {
    "moves-dp": { load: () => import("./widgets/moves.js"), mount: (w, { figure }) =>
      w.mountMoves(figure, { strategy: "dp" }) },
    "timeline-dp": { load: () => import("./widgets/step_timeline.js"), mount: (w, { figure, core }) =>
      w.mountStepTimeline(figure, core, { strategy: "dp-bucketed", gpus: 8, link: "infiniband" }) },
    "memory": { load: () => import("./widgets/memory_bars.js"), mount: (w, { figure, core }) =>
      w.mountMemoryBars(figure, core) },
    "moves-zero": { load: () => import("./widgets/moves.js"), mount: (w, { figure }) =>
      w.mountMoves(figure, { strategy: "zero3" }) },
    "moves-tp": { load: () => import("./widgets/moves.js"), mount: (w, { figure }) =>
      w.mountMoves(figure, { strategy: "tp" }) },
    "bubble": { load: () => import("./widgets/bubble.js"), mount: (w, { figure, core }) =>
      w.mountBubble(figure, core) },
    "moves-pp": { load: () => import("./widgets/moves.js"), mount: (w, { figure }) =>
      w.mountMoves(figure, { strategy: "pp" }) },
    "moves": { load: () => import("./widgets/moves.js"), mount: (w, { figure }) =>
      w.mountMoves(figure, { strategy: "3d" }) },
    "timeline": { load: () => import("./widgets/step_timeline.js"), mount: (w, { figure, core }) =>
      w.mountStepTimeline(figure, core, { strategy: "fsdp-tp", gpus: 64, link: "nvlink" }) },
    "train": { load: () => import("./widgets/train_panel.js"), mount: (w, { figure, core, clusters }) =>
      w.mountTrainPanel(figure, core, clusters) },
  },
});
