// week2.js — Week 2's page module: its exercises, the numbers in its prose, and its widgets (each figure[data-widget]
// built by widgets/<name>.js's mount<Name>, web/lesson/widget_modules.js; the others name theirs).
import { startLesson } from "../../web/lesson/lesson_page.js";
import { widgetsOf } from "../../web/lesson/widget_modules.js";
import exercises from "./exercises.js";

// The three animations of one widget module, each with its own collectives and algorithms.
const animate = (options) => ({ load: () => import("./widgets/animate.js"),
  mount: (w, { figure, core, clusters }) => w.mountAnimate(figure, core, clusters, options) });

await startLesson({
  exercises,
  calcs: new URL("./calcs.js", import.meta.url),
  widgets: widgetsOf(new URL("./widgets/", import.meta.url), document, {
    "primitives": animate({ collective: "broadcast", algorithm: "linear", ranks: 4 }),
    "animate": animate({ collective: "all-reduce", algorithm: "ring", ranks: 4 }),
    "recursive": animate({ collectives: ["all-reduce", "all-gather", "reduce-scatter"],
      only: ["recursive-doubling", "rabenseifner", "recursive-halving"], algorithm: "recursive-doubling", ranks: 6 }),
    "cost-counter": "cost_table", "gather-scatter": "cost_table", "time-vs-size": "cost_curves", "time-vs-p": "cost_curves",
    "busbw": "busbw#mountBusBandwidth",
  }),
});
