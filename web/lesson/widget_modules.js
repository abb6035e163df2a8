// widget_modules.js — a lesson's widgets by one convention, so a page module lists only the widgets that depart from
// it: the figure with data-widget="pipeline-timeline" is built by the export mountPipelineTimeline of
// widgets/pipeline_timeline.js (beside the page's module), called as mountPipelineTimeline(figure, core, clusters)
// — a widget that needs neither the core nor the clusters ignores them. Each module is imported when its figure
// comes near (widgets_on_demand.js).
//   widgets: widgetsOf(widgetsDir, document, {            // widgetsDir: the URL of the page's widgets/ folder
//     "busbw": "busbw#mountBusBandwidth",                  // another module or export: "module[#export]"
//     "ping-pong": { load, mount },                        // or a { load, mount } / function as widgets_on_demand takes
//   })

/** "pipeline-timeline" → { module: "pipeline_timeline", mount: "mountPipelineTimeline" }. */
export function widgetConvention(name) {
  if (!/^[a-z][a-z0-9]*(-[a-z0-9]+)*$/.test(name)) throw new Error(`a widget's name is lower-case words joined by "-": "${name}"`);
  const words = name.split("-");
  return { module: words.join("_"), mount: `mount${words.map((w) => w[0].toUpperCase() + w.slice(1)).join("")}` };
}

/**
 * The widgets map lesson_page.js's startLesson takes, for every figure[data-widget] of `root`: `exceptions[name]`
 * where given (a { load, mount }, a function, or "module[#export]"), else the convention. `dir` is the URL of the
 * folder that holds the widgets' modules.
 */
export function widgetsOf(dir, root, exceptions = {}) {
  const names = new Set([...root.querySelectorAll("figure[data-widget]")].map((f) => f.dataset.widget));
  for (const name of Object.keys(exceptions)) {
    if (!names.has(name)) throw new Error(`the page has no widget "${name}"`);
  }
  const widgets = {};
  for (const name of names) {
    const given = exceptions[name];
    if (given !== undefined && typeof given !== "string") { widgets[name] = given; continue; }
    const conventional = widgetConvention(name);
    const [module, mount = conventional.mount] = (given ?? conventional.module).split("#");
    const url = new URL(`${module}.js`, dir).href;
    widgets[name] = { load: () => import(url), mount: (w, { figure, core, clusters }) => {
      if (typeof w[mount] !== "function") throw new Error(`widget "${name}": ${module}.js exports no ${mount}`);
      w[mount](figure, core, clusters);
    } };
  }
  return widgets;
}
