// week4.js — Week 4's page module: its exercises, the numbers in its prose, and its widgets.
import { startLesson } from "../web/lesson/lesson_page.js";
import exercises from "./exercises.js";
import { mountStragglers } from "./widgets/stragglers.js";
import { mountParamServer } from "./widgets/param_server.js";
import { mountStaleness } from "./widgets/staleness.js";
import { mountRegimes } from "./widgets/regimes.js";
import { mountSspTradeoff } from "./widgets/ssp_tradeoff.js";
import { mountBackupWorkers } from "./widgets/backup_workers.js";
import { mountHogwild } from "./widgets/hogwild.js";
import { mountConsistency } from "./widgets/consistency.js";
import { mountPsWorkers } from "./widgets/ps_workers.js";

await startLesson({
  exercises,
  calcs: new URL("./calcs.js", import.meta.url),
  widgets: {
    "stragglers": ({ figure }) => mountStragglers(figure),
    "param-server": ({ figure }) => mountParamServer(figure),
    "staleness": ({ figure }) => mountStaleness(figure),
    "regimes": ({ figure, core }) => mountRegimes(figure, core),
    "ssp-tradeoff": ({ figure }) => mountSspTradeoff(figure),
    "backup-workers": ({ figure }) => mountBackupWorkers(figure),
    "hogwild": ({ figure }) => mountHogwild(figure),
    "consistency": ({ figure, core }) => mountConsistency(figure, core),
    "ps-workers": ({ figure, core, clusters }) => mountPsWorkers(figure, core, clusters),
  },
});
