// guide_page.js — the module of a guide page (scripts/render_guide.mjs): the site header with the theme toggle
// and the table of contents, as on every lesson page; a guide has nothing else to run.
import { initLesson } from "./lesson.js";

initLesson();
