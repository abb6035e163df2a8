// planner.js — the planner page's module: its exercises, the numbers in its prose (calcs.js), and its three widgets
// (the planner, attention fused and unfused, the published tables). Every number on the page comes from the core:
// core.planStep (dsml/planner.h, what `dsml plan` runs), core.attentionCost and core.plannerValidation.
import { startLesson } from "../../web/lesson/lesson_page.js";
import exercises from "./exercises.js";

await startLesson({
  exercises,
  calcs: new URL("./calcs.js", import.meta.url),
  widgets: {
    "planner": { load: () => import("./widgets/planner.js"), mount: (w, { figure, core }) => w.mountPlanner(figure, core) },
    "attention": { load: () => import("./widgets/attention.js"), mount: (w, { figure, core }) => w.mountAttention(figure, core) },
    "calibration": { load: () => import("./widgets/calibration.js"), mount: (w, { figure, core }) => w.mountCalibration(figure, core) },
  },
});
