// week4.js — Week 4's page module: its exercises, the numbers in its prose, and its widgets.
import { startLesson } from "../../web/lesson/lesson_page.js";
import exercises from "./exercises.js";

await startLesson({
  exercises,
  calcs: new URL("./calcs.js", import.meta.url),
  widgets: {
    "stragglers": { load: () => import("./widgets/stragglers.js"), mount: (w, { figure }) =>
      w.mountStragglers(figure) },
    "param-server": { load: () => import("./widgets/param_server.js"), mount: (w, { figure }) =>
      w.mountParamServer(figure) },
    "staleness": { load: () => import("./widgets/staleness.js"), mount: (w, { figure }) => w.mountStaleness(figure) },
    "regimes": { load: () => import("./widgets/regimes.js"), mount: (w, { figure, core }) =>
      w.mountRegimes(figure, core) },
    "ssp-tradeoff": { load: () => import("./widgets/ssp_tradeoff.js"), mount: (w, { figure }) =>
      w.mountSspTradeoff(figure) },
    "ssp-absorb": { load: () => import("./widgets/ssp_absorb.js"), mount: (w, { figure }) => w.mountSspAbsorb(figure) },
    "backup-workers": { load: () => import("./widgets/backup_workers.js"), mount: (w, { figure }) =>
      w.mountBackupWorkers(figure) },
    "hogwild": { load: () => import("./widgets/hogwild.js"), mount: (w, { figure }) => w.mountHogwild(figure) },
    "consistency": { load: () => import("./widgets/consistency.js"), mount: (w, { figure, core }) =>
      w.mountConsistency(figure, core) },
    "ps-workers": { load: () => import("./widgets/ps_workers.js"), mount: (w, { figure, core, clusters }) =>
      w.mountPsWorkers(figure, core, clusters) },
  },
});
