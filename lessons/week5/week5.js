// week5.js — Week 5's page module: its exercises, the numbers in its prose, and its widgets (each figure[data-widget]
// built by widgets/<name>.js's mount<Name>, web/lesson/widget_modules.js).
import { startLesson } from "../../web/lesson/lesson_page.js";
import { widgetsOf } from "../../web/lesson/widget_modules.js";
import exercises from "./exercises.js";

await startLesson({
  exercises,
  calcs: new URL("./calcs.js", import.meta.url),
  widgets: widgetsOf(new URL("./widgets/", import.meta.url), document),
});
