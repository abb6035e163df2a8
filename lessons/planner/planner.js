// planner.js — the planner page's module: its exercises, the numbers in its prose (calcs.js), and its two widgets
// (the planner, Table 1). Every number on the page comes from core.planStep — dsml/planner.h, what `dsml plan` runs.
import { startLesson } from "../../web/lesson/lesson_page.js";
import exercises from "./exercises.js";

await startLesson({
  exercises,
  calcs: new URL("./calcs.js", import.meta.url),
  widgets: {
    "planner": { load: () => import("./widgets/planner.js"), mount: (w, { figure, core }) => w.mountPlanner(figure, core) },
    "table1": { load: () => import("./widgets/table1.js"), mount: (w, { figure, core }) => w.mountTable1(figure, core) },
  },
});
