// Bundled by esbuild into site/web/vendor/editor.js: the CodeMirror 6 pieces the course uses.
export { EditorView, keymap, Decoration, WidgetType } from "@codemirror/view";
export { EditorState, Compartment, Prec, StateField, StateEffect } from "@codemirror/state";
export { basicSetup } from "codemirror";
export { javascript } from "@codemirror/lang-javascript";
export { HighlightStyle, defaultHighlightStyle, syntaxHighlighting } from "@codemirror/language";
export { oneDark } from "@codemirror/theme-one-dark";
export { indentWithTab } from "@codemirror/commands";
