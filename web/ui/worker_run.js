// worker_run.js — what a widget's "Run on the Workers" button does around its run, written once: one run at a time
// (a click while one goes on does nothing), the buttons disabled and the figure's settings locked meanwhile
// (controls.js lockSettings), and a run that cannot finish said in the widget's status line, not thrown.
//   const guard = runGuard(figure, [run], status);
//   const run = button("Run on the Workers", () => guard(async () => { … finished(await clusters.run(…)) … }));
//   guard.busy   true while a run goes on
import { lockSettings } from "./controls.js";
import { describeFailure } from "./run_output.js";

export function runGuard(figure, buttons, status, { failure = "The run could not finish" } = {}) {
  let busy = false;
  const enable = (on) => { for (const b of buttons) b.disabled = !on; lockSettings(figure, !on); };
  const guard = async (work) => {
    if (busy) return;
    busy = true;
    enable(false);
    try {
      await work();
    } catch (err) {
      status.textContent = `${failure}: ${err.message}`;
    } finally {
      busy = false;
      enable(true);
    }
  };
  Object.defineProperty(guard, "busy", { get: () => busy });
  return guard;
}

/** The cluster's RunResult if every rank finished; else an Error saying why in words (run_output.js). */
export function finished(result) {
  if (result.status !== "ok") throw new Error(describeFailure(result).replace(/<[^>]+>/g, ""));
  return result;
}
