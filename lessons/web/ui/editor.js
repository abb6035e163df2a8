// editor.js — the code editor of code exercises: CodeMirror 6 with JavaScript, following the page theme.
// Ctrl/Cmd-Enter runs; Escape then Tab leaves the editor (Tab indents inside it).
import {
  EditorView, EditorState, Compartment, Prec, basicSetup, javascript, oneDark, keymap, indentWithTab,
} from "../vendor/editor.js";
import { currentTheme } from "./theme.js";
import { forgetPrintCopy, printCopy } from "./print.js";

export function createEditor(parent, { doc, label, onRun, onChange }) {
  const theme = new Compartment();
  // One Dark's gutter numbers (#7d8799 on #282c34) miss WCAG AA contrast; lighten them.
  const darkGutters = EditorView.theme({ ".cm-gutters": { color: "#aab2c0" } }, { dark: true });
  const themeFor = (name) => (name === "dark" ? [oneDark, darkGutters] : []);
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc,
      extensions: [
        basicSetup,
        javascript(),
        EditorView.lineWrapping,  // no sideways scrolling: readable at 360 px and on a phone keyboard
        keymap.of([indentWithTab]),
        Prec.highest(keymap.of([{ key: "Mod-Enter", run: () => { onRun?.(); return true; } }])),
        theme.of(themeFor(currentTheme())),
        // tabindex: axe counts the content as a keyboard stop inside the scroller (it ignores contenteditable).
        EditorView.contentAttributes.of({ "aria-label": label, tabindex: "0" }),
        EditorView.updateListener.of((update) => { if (update.docChanged) onChange?.(update.state.doc.toString()); }),
      ],
    }),
  });
  // Wrapped lines are measured only once the editor is on screen; without a re-measure when it scrolls into
  // view (and when fonts arrive), the gutter keeps estimated heights and line numbers drift from their lines.
  document.fonts?.ready.then(() => view.requestMeasure());
  const visible = new IntersectionObserver((entries) => {
    if (entries.some((e) => e.isIntersecting)) view.requestMeasure();
  });
  visible.observe(parent);
  const retheme = () => view.dispatch({ effects: theme.reconfigure(themeFor(currentTheme())) });
  document.addEventListener("dsml-theme", retheme);
  printCopy(parent, () => view.state.doc.toString());   // the whole text on paper, not just the scroll box
  return {
    view,
    get value() { return view.state.doc.toString(); },
    // Replaces the whole text as one undoable change (Ctrl-Z brings the learner's code back).
    set value(text) { view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } }); },
    focus() { view.focus(); },
    destroy() {
      document.removeEventListener("dsml-theme", retheme);
      forgetPrintCopy(parent);
      visible.disconnect();
      view.destroy();
    },
  };
}
