// editor.js — the code editor of code exercises: CodeMirror 6 with JavaScript, following the page theme.
// Ctrl/Cmd-Enter runs; Escape then Tab leaves the editor (Tab indents inside it).
//
// CodeMirror is large (loading it takes tens of milliseconds of the main thread, building a view as much again)
// and a page's editors sit near its end, so both wait: CodeMirror is loaded, and an editor's view built, when
// the editor comes within a screen of the viewport, gets the focus, or is asked for (focus(),
// materializeEditors(); `view` once CodeMirror is loaded). Until then the box shows the code as plain text in
// the editor's font, and the value can be read and set as usual (a set value is reported to onChange as an edit).
import { currentTheme } from "./theme.js";
import { forgetPrintCopy, printCopy } from "./print.js";

let cm = null;        // the CodeMirror module, once loaded
let loading = null;
const loadCodeMirror = () => (loading ??= import("../vendor/editor.js").then((module) => { cm = module; }));

const waiting = new Set();   // the build functions of editors whose view is not built yet

/** Build the view of every editor on the page (before a test drives them, or when everything is needed). */
export async function materializeEditors() {
  await loadCodeMirror();
  for (const build of [...waiting]) build();
}

// CodeMirror's default colours, with the three that miss WCAG AA contrast (4.5:1) on the page's light background
// (#fcfcfa) and its active line darkened: template strings and regexps #e40 (3.7:1), invalid #f00 (3.9:1), type
// names #085 (4.4:1). Built once, when CodeMirror has loaded.
const DARKER = { "#e40": "#b02c00", "#f00": "#b00", "#085": "#075" };
let light = null;
function lightHighlight() {
  light ??= cm.HighlightStyle.define(cm.defaultHighlightStyle.specs.map((spec) =>
    (spec.color in DARKER ? { ...spec, color: DARKER[spec.color] } : spec)));
  return light;
}

// readOnly: the learner reads and steps through the code but cannot change it (the lab's rank program).
export function createEditor(parent, { doc, label, onRun, onChange, readOnly = false }) {
  let view = null;
  let text = doc;
  let theme = null;
  const themeFor = (name) => (name === "dark"
    // One Dark's gutter numbers (#7d8799 on #282c34) miss WCAG AA contrast; lighten them.
    ? [cm.oneDark, cm.EditorView.theme({ ".cm-gutters": { color: "#aab2c0" } }, { dark: true })]
    : [cm.syntaxHighlighting(lightHighlight())]);

  // Until the view is built: the code as text, a stop in the tab order that builds the view when reached.
  const placeholder = document.createElement("div");
  placeholder.className = "editor-placeholder";
  Object.entries({ role: "textbox", "aria-multiline": "true", "aria-label": label, tabindex: "0" })
    .forEach(([k, v]) => placeholder.setAttribute(k, v));
  const pre = document.createElement("pre");
  pre.textContent = text;
  placeholder.append(pre);
  parent.append(placeholder);

  // The view, built now if CodeMirror is loaded; otherwise null, and built as soon as it is.
  const build = () => {
    if (view) return view;
    if (!cm) { loadCodeMirror().then(build); return null; }
    waiting.delete(build);
    const hadFocus = placeholder.contains(document.activeElement);
    placeholder.remove();
    const { EditorView, EditorState, Compartment, Prec, basicSetup, javascript, keymap, indentWithTab } = cm;
    theme = new Compartment();
    view = new EditorView({
      parent,
      state: EditorState.create({
        doc: text,
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
          ...(readOnly ? [EditorState.readOnly.of(true)] : []),
        ],
      }),
    });
    // Wrapped lines are measured only once the editor is on screen; without a re-measure when it scrolls into
    // view (and when fonts arrive), the gutter keeps estimated heights and line numbers drift from their lines.
    document.fonts?.ready.then(() => view.requestMeasure());
    if (hadFocus) view.focus();
    return view;
  };
  waiting.add(build);

  const near = new IntersectionObserver((entries) => {
    if (!entries.some((e) => e.isIntersecting)) return;
    if (view) view.requestMeasure();
    else setTimeout(build);   // its own task
  }, { rootMargin: "100% 0px" });
  near.observe(parent);
  const focusView = () => {
    const built = build();
    if (built) built.focus();
    else loadCodeMirror().then(() => build().focus());
  };
  placeholder.addEventListener("focus", () => build());   // build() moves the focus into the new view
  placeholder.addEventListener("pointerdown", () => setTimeout(focusView));

  const retheme = () => view?.dispatch({ effects: theme.reconfigure(themeFor(currentTheme())) });
  document.addEventListener("dsml-theme", retheme);
  printCopy(parent, () => (view ? view.state.doc.toString() : text));   // the whole text on paper, not the scroll box
  return {
    get view() { return build(); },
    get value() { return view ? view.state.doc.toString() : text; },
    // Replaces the whole text as one undoable change (Ctrl-Z brings the learner's code back).
    set value(next) {
      if (view) {
        view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: next } });
      } else if (next !== text) {
        text = next;
        pre.textContent = next;
        onChange?.(next);
      }
    },
    focus: focusView,
    destroy() {
      document.removeEventListener("dsml-theme", retheme);
      forgetPrintCopy(parent);
      near.disconnect();
      waiting.delete(build);
      view?.destroy();
    },
  };
}
