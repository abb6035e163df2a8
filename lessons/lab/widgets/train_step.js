// train_step.js — the lab's Step: one training step of the lab's rank program (programs/lab_program.js) on the
// grid the panel shows, on the same Workers, every rank pausing before each statement of the program
// (web/exercise/step_through.js). At each pause the panel lists each rank's variables — its tensors with their
// shapes and L2 norms (worker/step_values.js) — and the messages in flight: forward on stage 0, the activation
// send, the tensor-parallel all-reduce, backward, the gradient all-reduce, one statement at a time. The program
// is shown read-only: it is the course's, the one Train runs.
import { button } from "../../../web/ui/controls.js";
import { createEditor } from "../../../web/ui/editor.js";
import { labLayout } from "../programs/lab_grid.js";
import { labInputs, labProgram } from "../programs/lab_program.js";

// mountTrainStep(figure, { clusters, config, before }): config() is the panel's current configuration (or null
// when it cannot run); `before` is the element the Step box goes before. → { button, setDisabled(locked) }
export function mountTrainStep(figure, { clusters, config, before }) {
  const box = document.createElement("div");
  box.className = "train-step";
  box.hidden = true;
  const heading = document.createElement("h3");
  heading.textContent = "One step, statement by statement";
  const note = document.createElement("p");
  note.className = "widget-note";
  const editorBox = document.createElement("div");
  editorBox.className = "editor";   // the editors' frame, at most 32rem tall: the selected rank's line scrolls into view
  const stepBox = document.createElement("div");
  box.append(heading, note, editorBox, stepBox);
  before.before(box);
  let editor = null, steps = null;

  const open = button("Step through one step", async () => {
    const cfg = config();
    if (!cfg) return;
    const one = { ...cfg, steps: 1 };
    const { ranks } = labLayout(one);
    box.hidden = false;
    note.textContent = `The program every one of the ${ranks} Workers runs (read-only), paused before each statement. Step a ` +
      "rank or all of them, or run to the next send/recv; the panel shows each rank's tensors with their shape and norm, " +
      "and the messages in flight. Continue finishes the step without stopping (a training step runs thousands of statements on each rank).";
    editor ??= createEditor(editorBox, { doc: labProgram(), label: "The lab's rank program (read-only)", readOnly: true });
    steps ??= await import("../../../web/exercise/step_through.js")
      .then((m) => m.mountStepThrough({ exercise: {}, editor, clusters, box: stepBox, freeContinue: true }));
    await steps.start({ ranks, inputs: labInputs(one) });
    box.scrollIntoView({ block: "nearest" });
  }, { secondary: true });
  return { button: open, setDisabled: (locked) => { open.disabled = locked; } };
}
