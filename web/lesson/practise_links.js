// practise_links.js — from a section to the exercises that practise it, and back. A section names its exercises
// in the HTML, beside its prose:
//   <section id="cost-model" data-practise="w1-crossover w1-iron-law">
// and gets, as its first focusable element, a skip link (shown when focused, like the page's "Skip to content") to
// the first of them; each of those exercises gets a link back to the section. A keyboard reader can go from reading
// to doing without tabbing through every widget in between.
//
// The link back is written into an exercise before the exercise enters the page (practiseLinks(root).backLink), so
// nothing is inserted above its answers once a learner can see them: a line added there later moves every box and
// button below it while the learner is aiming at one.
//   const links = practiseLinks(document);
//   links.backLink(controller);            // each exercise, before container.append(controller.root)
//   links.skipLinks(controllers);          // once every exercise is mounted

const make = (tag, attrs, text) => {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  el.textContent = text;
  return el;
};

/** The page's sections with data-practise: backLink(controller) and skipLinks(Map id → controller). */
export function practiseLinks(root) {
  const sections = [...root.querySelectorAll("section[id][data-practise]")].map((section) => ({
    section, ids: section.dataset.practise.split(/\s+/).filter(Boolean),
    heading: section.querySelector(":scope > h2")?.textContent.trim() ?? section.id,
  }));
  return {
    // The link back to every section that practises this exercise, under its kind line.
    backLink(controller) {
      for (const { section, ids, heading } of sections) {
        if (!ids.includes(controller.exercise.id)) continue;
        const back = make("p", { class: "exercise-section" }, "Practises ");
        back.append(make("a", { href: `#${section.id}` }, heading));
        controller.root.querySelector(".exercise-kind")?.after(back);
      }
    },
    // exercises: the Map id → controller of the mounted exercises (each has .root, an article with id "ex-<id>").
    skipLinks(exercises) {
      for (const { section, ids } of sections) {
        const targets = ids.map((id) => {
          const controller = exercises.get(id);
          if (!controller) throw new Error(`section #${section.id} names exercise "${id}", which this page does not have`);
          return controller.root;
        });
        if (!targets.length) continue;
        const titles = targets.map((t) => t.querySelector("h3")?.firstChild?.textContent.trim().replace(/\.$/, ""));
        const skip = make("a", { class: "section-skip", href: `#${targets[0].id}` },
          `Skip to this section's exercise${targets.length > 1 ? "s" : ""}: ${titles.join("; ")}`);
        (section.querySelector(":scope > h2") ?? section.firstChild)?.after(skip);
      }
    },
  };
}
