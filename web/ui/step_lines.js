// step_lines.js — the editor's marks during a step-through: each rank's current line, in the rank's colour
// (--chart-1 … --chart-6, as the timeline), the selected rank's line strongest, and at the line's end the ranks
// that are there ("◀ 0 2"). CodeMirror 6 line decorations in a state field added to the editor's view on first use.
//   const marks = stepLines(editor);   marks.show([{ rank, line }], selected);   marks.clear();
let cm = null;      // CodeMirror (the editor's own module instance), loaded by the first show()
let field = null;   // the StateField, built once CodeMirror is loaded (same module instance as the editor's)
let setMarks = null;

function extension() {
  if (field) return field;
  const { StateField, StateEffect, Decoration, EditorView, WidgetType } = cm;
  class Ranks extends WidgetType {
    constructor(ranks, selected) { super(); this.ranks = ranks; this.selected = selected; }
    eq(other) { return other.ranks.join() === this.ranks.join() && other.selected === this.selected; }
    toDOM() {
      const span = document.createElement("span");
      span.className = "cm-step-ranks";
      span.setAttribute("aria-hidden", "true");
      span.textContent = "◀";
      for (const r of this.ranks) {
        const b = document.createElement("b");
        b.textContent = ` ${r}`;
        b.style.color = rankColour(r);
        if (r === this.selected) b.className = "selected";
        span.append(b);
      }
      return span;
    }
  }
  setMarks = StateEffect.define();
  field = StateField.define({
    create: () => Decoration.none,
    update(deco, tr) {
      deco = deco.map(tr.changes);
      for (const e of tr.effects) if (e.is(setMarks)) deco = build(tr.state.doc, e.value);
      return deco;
    },
    provide: (f) => EditorView.decorations.from(f),
  });
  function build(doc, { marks, selected }) {
    const byLine = new Map();
    for (const { rank, line } of marks) if (line >= 1 && line <= doc.lines) (byLine.get(line) ?? byLine.set(line, []).get(line)).push(rank);
    const ranges = [...byLine.entries()].sort((a, b) => a[0] - b[0]).flatMap(([line, ranks]) => {
      const { from, to } = doc.line(line);
      const lead = ranks.includes(selected) ? selected : ranks[0];
      return [
        Decoration.line({ class: `cm-step-line${ranks.includes(selected) ? " cm-step-selected" : ""}`,
                          attributes: { style: `--step-colour: ${rankColour(lead)}` } }).range(from),
        Decoration.widget({ widget: new Ranks(ranks, selected), side: 1 }).range(to),
      ];
    });
    return Decoration.set(ranges, true);
  }
  return field;
}

export const rankColour = (r) => `var(--chart-${(r % 6) + 1})`;

export function stepLines(editor) {
  let added = false;
  const dispatch = (value, scrollTo = null) => {
    const view = editor.view;
    if (!view) return;
    const effects = [];
    if (!added) { effects.push(cm.StateEffect.appendConfig.of(extension())); added = true; }
    effects.push(setMarks.of(value));
    const spec = { effects };
    if (scrollTo && scrollTo <= view.state.doc.lines) {
      effects.push(cm.EditorView.scrollIntoView(view.state.doc.line(scrollTo).from, { y: "nearest" }));
    }
    view.dispatch(spec);
  };
  return {
    // marks: [{ rank, line }]; the selected rank's line is scrolled into view.
    async show(marks, selected) {
      cm ??= await import("../vendor/editor.js");
      extension();
      dispatch({ marks, selected }, marks.find((m) => m.rank === selected)?.line ?? null);
    },
    clear() { if (added) dispatch({ marks: [], selected: -1 }); },
    get shown() { return added; },
  };
}
