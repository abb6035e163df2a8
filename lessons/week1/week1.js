// week1.js — Week 1's page module: its exercises, the numbers in its prose, and its widgets.
import { startLesson } from "../../web/lesson/lesson_page.js";
import exercises from "./exercises.js";
import { RING_GREETING } from "./programs/ring_greeting.js";

// The printed ring greeting is the program the hello-cluster widget runs.
document.querySelector("[data-program=ring-greeting]").textContent = RING_GREETING;

await startLesson({
  exercises,
  calcs: new URL("./calcs.js", import.meta.url),
  widgets: {
    "tail-at-scale": { load: () => import("./widgets/tail_at_scale.js"), mount: (w, { figure, core }) =>
      w.mountTailAtScale(figure, core) },
    "hello-cluster": { load: () => import("./widgets/hello_cluster.js"), mount: (w, { figure, clusters }) =>
      w.mountHelloCluster(figure, clusters, RING_GREETING) },
    "alpha-beta": { load: () => import("./widgets/alpha_beta.js"), mount: (w, { figure, core }) =>
      w.mountAlphaBeta(figure, core) },
    // The widget runs the ping-pong exercise's reference solution: what the learner sees is what CI checks.
    "ping-pong": { load: () => import("./widgets/pingpong.js"), mount: (w, { figure, core, clusters }) =>
      w.mountPingPong(figure, core, clusters, exercises.find((e) => e.id === "w1-ping-pong").solution) },
    "bucketing": { load: () => import("./widgets/bucketing.js"), mount: (w, { figure, core }) =>
      w.mountBucketing(figure, core) },
    "simulator": { load: () => import("./widgets/simulator.js"), mount: (w, { figure, core }) =>
      w.mountSimulator(figure, core) },
    "iron-law": { load: () => import("./widgets/iron_law.js"), mount: (w, { figure, core }) =>
      w.mountIronLaw(figure, core) },
    "scaling-laws": { load: () => import("./widgets/scaling_laws.js"), mount: (w, { figure, core }) =>
      w.mountScalingLaws(figure, core) },
  },
});
