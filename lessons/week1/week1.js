// week1.js — Week 1's page module: the lesson template, the core, the widgets and the exercises.
import { initLesson } from "../web/lesson.js";
import { loadCore } from "../web/wasm.js";
import { ClusterPool } from "../web/cluster_pool.js";
import { Progress } from "../web/progress.js";
import { mountExercises } from "../web/exercise.js";
import { showNotices } from "../web/notices.js";
import { fillCalcs } from "../web/calc.js";
import exercises from "./exercises.js";
import { CALCS } from "./calcs.js";
import { mountAlphaBeta } from "./widgets/alpha_beta.js";
import { mountPingPong } from "./widgets/pingpong.js";
import { mountSimulator } from "./widgets/simulator.js";
import { mountScalingLaws } from "./widgets/scaling_laws.js";
import { mountTailAtScale } from "./widgets/tail_at_scale.js";
import { mountHelloCluster } from "./widgets/hello_cluster.js";
import { mountBucketing } from "./widgets/bucketing.js";
import { mountIronLaw } from "./widgets/iron_law.js";
import { RING_GREETING } from "./programs/ring_greeting.js";

initLesson();
const progress = new Progress();
showNotices(progress.notices);
const core = await loadCore();
const clusters = new ClusterPool();

fillCalcs(document, CALCS, core);
document.querySelector("[data-program=ring-greeting]").textContent = RING_GREETING;
const widget = (name) => document.querySelector(`[data-widget="${name}"]`);
mountTailAtScale(widget("tail-at-scale"), core);
mountHelloCluster(widget("hello-cluster"), clusters, RING_GREETING);
mountBucketing(widget("bucketing"), core);
mountIronLaw(widget("iron-law"), core);
mountAlphaBeta(widget("alpha-beta"), core);
mountPingPong(widget("ping-pong"), core, clusters, exercises.find((e) => e.id === "w1-ping-pong").solution);
mountSimulator(widget("simulator"), core);
mountScalingLaws(widget("scaling-laws"), core);
const controllers = mountExercises(document.querySelector("[data-exercises]"), exercises, { core, progress, clusters });

// For the page tests and the curious: the live exercises and the core.
window.dsml = { core, progress, exercises: controllers };
document.documentElement.dataset.ready = "true";
