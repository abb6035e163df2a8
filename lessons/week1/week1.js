// week1.js — Week 1's page module: its exercises, the numbers in its prose, and its widgets (each figure[data-widget]
// built by widgets/<name>.js's mount<Name>, web/lesson/widget_modules.js; the two below take more).
import { startLesson } from "../../web/lesson/lesson_page.js";
import { widgetsOf } from "../../web/lesson/widget_modules.js";
import exercises from "./exercises.js";
import { RING_GREETING } from "./programs/ring_greeting.js";

// The printed ring greeting is the program the hello-cluster widget runs.
document.querySelector("[data-program=ring-greeting]").textContent = RING_GREETING;

await startLesson({
  exercises,
  calcs: new URL("./calcs.js", import.meta.url),
  widgets: widgetsOf(new URL("./widgets/", import.meta.url), document, {
    "hello-cluster": { load: () => import("./widgets/hello_cluster.js"), mount: (w, { figure, clusters }) =>
      w.mountHelloCluster(figure, clusters, RING_GREETING) },
    // The widget runs the ping-pong exercise's reference solution: what the learner sees is what CI checks.
    "ping-pong": { load: () => import("./widgets/pingpong.js"), mount: (w, { figure, core, clusters }) =>
      w.mountPingPong(figure, core, clusters, exercises.find((e) => e.id === "w1-ping-pong").solution) },
  }),
});
