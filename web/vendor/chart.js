// Bundled by esbuild into site/web/vendor/chart.js: Chart.js 4 with every controller registered.
import { Chart, registerables } from "chart.js";
Chart.register(...registerables);
export { Chart };
