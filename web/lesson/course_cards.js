// course_cards.js — the course index's card for each week, as HTML: written into index.html by the site
// assembler (so the cards are there at first paint and nothing moves when the page's script runs) and redrawn
// by index.js with the learner's progress. A card's foot always takes the height of a progress meter.
import { weekLabel } from "./course.js";

const escape = (s) => String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);

/**
 * One <li> per week. `progressOf(week)` gives { solved, total } once the week's exercises are known, or null
 * (then the foot says "Available now").
 */
export function cardsHTML(weeks, progressOf = () => null) {
  return weeks.map((week) => {
    const title = week.available
      ? `<a href="./${escape(week.slug)}/index.html">${escape(week.title)}</a>` : escape(week.title);
    return `<li><article class="${week.available ? "card" : "card pending"}" aria-labelledby="card-${escape(week.slug)}">`
      + `<p class="kicker">${escape(weekLabel(week))}</p><h3 id="card-${escape(week.slug)}">${title}</h3>`
      + `<p>${escape(week.summary)}</p><div class="card-foot">${foot(week, progressOf(week))}</div></article></li>`;
  }).join("");
}

function foot(week, progress) {
  if (!week.available) return '<span class="badge">In preparation</span>';
  if (!progress) return "<span>Available now</span>";
  const { solved, total } = progress;
  const width = total ? (100 * solved) / total : 0;
  return `<span>${solved} of ${total} exercises solved</span>`
    + `<div class="meter" aria-hidden="true"><span style="width: ${width}%"></span></div>`;
}
