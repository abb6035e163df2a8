// editor.js — the code editor of code exercises: CodeMirror 6 with JavaScript, following the page theme.
// Ctrl/Cmd-Enter runs; Escape then Tab leaves the editor (Tab indents inside it).
import {
  EditorView, EditorState, Compartment, Prec, basicSetup, javascript, oneDark, keymap, indentWithTab,
} from "./vendor/editor.js";
import { currentTheme } from "./theme.js";

export function createEditor(parent, { doc, label, onRun, onChange }) {
  const theme = new Compartment();
  const themeFor = (name) => (name === "dark" ? oneDark : []);
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc,
      extensions: [
        basicSetup,
        javascript(),
        keymap.of([indentWithTab]),
        Prec.highest(keymap.of([{ key: "Mod-Enter", run: () => { onRun?.(); return true; } }])),
        theme.of(themeFor(currentTheme())),
        EditorView.contentAttributes.of({ "aria-label": label }),
        EditorView.updateListener.of((update) => { if (update.docChanged) onChange?.(update.state.doc.toString()); }),
      ],
    }),
  });
  const retheme = () => view.dispatch({ effects: theme.reconfigure(themeFor(currentTheme())) });
  document.addEventListener("dsml-theme", retheme);
  return {
    view,
    get value() { return view.state.doc.toString(); },
    // Replaces the whole text as one undoable change (Ctrl-Z brings the learner's code back).
    set value(text) { view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } }); },
    focus() { view.focus(); },
    destroy() { document.removeEventListener("dsml-theme", retheme); view.destroy(); },
  };
}
