// week1.js — Week 1's page module: its exercises, the numbers in its prose, and its widgets.
import { startLesson } from "../web/lesson/lesson_page.js";
import exercises from "./exercises.js";
import { CALCS } from "./calcs.js";
import { RING_GREETING } from "./programs/ring_greeting.js";
import { mountAlphaBeta } from "./widgets/alpha_beta.js";
import { mountBucketing } from "./widgets/bucketing.js";
import { mountHelloCluster } from "./widgets/hello_cluster.js";
import { mountIronLaw } from "./widgets/iron_law.js";
import { mountPingPong } from "./widgets/pingpong.js";
import { mountScalingLaws } from "./widgets/scaling_laws.js";
import { mountSimulator } from "./widgets/simulator.js";
import { mountTailAtScale } from "./widgets/tail_at_scale.js";

await startLesson({
  exercises,
  calcs: CALCS,
  mountWidgets({ core, clusters, widget }) {
    document.querySelector("[data-program=ring-greeting]").textContent = RING_GREETING;
    mountTailAtScale(widget("tail-at-scale"), core);
    mountHelloCluster(widget("hello-cluster"), clusters, RING_GREETING);
    mountAlphaBeta(widget("alpha-beta"), core);
    // The widget runs the ping-pong exercise's reference solution: what the learner sees is what CI checks.
    mountPingPong(widget("ping-pong"), core, clusters, exercises.find((e) => e.id === "w1-ping-pong").solution);
    mountBucketing(widget("bucketing"), core);
    mountSimulator(widget("simulator"), core);
    mountIronLaw(widget("iron-law"), core);
    mountScalingLaws(widget("scaling-laws"), core);
  },
});
