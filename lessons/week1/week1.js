// week1.js — Week 1's page module: its exercises, the numbers in its prose, and its widgets.
import { startLesson } from "../web/lesson/lesson_page.js";
import exercises from "./exercises.js";
import { RING_GREETING } from "./programs/ring_greeting.js";
import { mountAlphaBeta } from "./widgets/alpha_beta.js";
import { mountBucketing } from "./widgets/bucketing.js";
import { mountHelloCluster } from "./widgets/hello_cluster.js";
import { mountIronLaw } from "./widgets/iron_law.js";
import { mountPingPong } from "./widgets/pingpong.js";
import { mountScalingLaws } from "./widgets/scaling_laws.js";
import { mountSimulator } from "./widgets/simulator.js";
import { mountTailAtScale } from "./widgets/tail_at_scale.js";

// The printed ring greeting is the program the hello-cluster widget runs.
document.querySelector("[data-program=ring-greeting]").textContent = RING_GREETING;

await startLesson({
  exercises,
  calcs: new URL("./calcs.js", import.meta.url),
  widgets: {
    "tail-at-scale": ({ figure, core }) => mountTailAtScale(figure, core),
    "hello-cluster": ({ figure, clusters }) => mountHelloCluster(figure, clusters, RING_GREETING),
    "alpha-beta": ({ figure, core }) => mountAlphaBeta(figure, core),
    // The widget runs the ping-pong exercise's reference solution: what the learner sees is what CI checks.
    "ping-pong": ({ figure, core, clusters }) =>
      mountPingPong(figure, core, clusters, exercises.find((e) => e.id === "w1-ping-pong").solution),
    "bucketing": ({ figure, core }) => mountBucketing(figure, core),
    "simulator": ({ figure, core }) => mountSimulator(figure, core),
    "iron-law": ({ figure, core }) => mountIronLaw(figure, core),
    "scaling-laws": ({ figure, core }) => mountScalingLaws(figure, core),
  },
});
