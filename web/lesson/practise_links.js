// practise_links.js — from a section to the exercises that practise it, and back. A section names its exercises
// in the HTML, beside its prose:
//   <section id="cost-model" data-practise="w1-crossover w1-iron-law">
// and gets, as its first focusable element, a skip link (shown when focused, like the page's "Skip to content") to
// the first of them; each of those exercises gets a link back to the section. A keyboard reader can go from reading
// to doing without tabbing through every widget in between.

const make = (tag, attrs, text) => {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, v);
  el.textContent = text;
  return el;
};

/** exercises: the Map id → controller of mountExercises (each has .root, an article with id "ex-<id>"). */
export function linkSectionsToExercises(root, exercises) {
  for (const section of root.querySelectorAll("section[id][data-practise]")) {
    const targets = section.dataset.practise.split(/\s+/).filter(Boolean).map((id) => {
      const controller = exercises.get(id);
      if (!controller) throw new Error(`section #${section.id} names exercise "${id}", which this page does not have`);
      return controller.root;
    });
    if (!targets.length) continue;
    const titles = targets.map((t) => t.querySelector("h3")?.firstChild?.textContent.trim().replace(/\.$/, ""));
    const skip = make("a", { class: "section-skip", href: `#${targets[0].id}` },
      `Skip to this section's exercise${targets.length > 1 ? "s" : ""}: ${titles.join("; ")}`);
    (section.querySelector(":scope > h2") ?? section.firstChild)?.after(skip);
    const heading = section.querySelector(":scope > h2")?.textContent.trim() ?? section.id;
    for (const target of targets) {
      const back = make("p", { class: "exercise-section" }, "Practises ");
      back.append(make("a", { href: `#${section.id}` }, heading));
      target.querySelector(".exercise-kind")?.after(back);
    }
  }
}
