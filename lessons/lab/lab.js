// lab.js — the parallelism lab's page module: its exercises, the numbers in its prose, the grid drawing and the
// live training panel (widgets/train_panel.js).
import { startLesson } from "../../web/lesson/lesson_page.js";
import exercises from "./exercises.js";

await startLesson({
  exercises,
  calcs: new URL("./calcs.js", import.meta.url),
  widgets: {
    "moves": { load: () => import("./widgets/moves.js"), mount: (w, { figure }) =>
      w.mountMoves(figure, { strategy: "3d" }) },
    "train": { load: () => import("./widgets/train_panel.js"), mount: (w, { figure, core, clusters }) =>
      w.mountTrainPanel(figure, core, clusters) },
  },
});
