// Bundled by esbuild into site/web/vendor/katex.js (its CSS and fonts are copied beside it).
export { default as katex } from "katex";
