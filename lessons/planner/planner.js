// planner.js — the planner page's module: its exercises and its two widgets (the planner, Table 1).
import { startLesson } from "../../web/lesson/lesson_page.js";
import exercises from "./exercises.js";

await startLesson({
  exercises,
  calcs: {},
  widgets: {
    "planner": { load: () => import("./widgets/planner.js"), mount: (w, { figure, core }) => w.mountPlanner(figure, core) },
    "table1": { load: () => import("./widgets/table1.js"), mount: (w, { figure, core }) => w.mountTable1(figure, core) },
  },
});
