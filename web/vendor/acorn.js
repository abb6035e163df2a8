// Bundled by esbuild into site/web/vendor/acorn.js: the JavaScript parser the step-through instruments code with.
export { parse } from "acorn";
