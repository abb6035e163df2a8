// section_refs.js — a lesson cites one of its sections by id, never by a typed number:
//   <a href="#ring" data-ref></a>            → section 4
//   <a href="#ring" data-ref="Section"></a>  → Section 4      (at the start of a sentence)
//   <a href="#ring" data-ref="§"></a>        → § 4
// The number is the section's place in the page's table of contents (web/ui/toc.js: `article > section[id] > h2`),
// so inserting or moving a section renumbers every reference to it. The link is written empty; its text is made
//   at build time, in the page's HTML (renderSectionRefs, called by scripts/assemble_site.mjs), so the static page
//     reads right without JavaScript — an id that is no section of the page fails the build, naming file and id;
//   in the browser, for the HTML an exercise writes (prompts, hints, solutions are made by its module when it
//     mounts): watchSectionRefs(document) fills every such link as it enters the page.

const REF = /<a\b([^>]*?)\sdata-ref(?![\w-])(?:="([^"]*)")?([^>]*)>([\s\S]*?)<\/a>/g;

/** The text of a reference to section `number`: "section 4", "Section 4", "§ 4" (a no-break space before it). */
export function refText(word, number) {
  return `${word || "section"}\u00a0${number}`;
}

/**
 * The numbered sections of a page's HTML, in order: [id, …] (the number of ids[i] is i + 1). A section counts when
 * it is a top-level <section id="…"> (not nested in another section) with an <h2> of its own — what the table of
 * contents lists. The lesson head's outcomes (a <section> without an id) do not count.
 */
export function sectionIds(html) {
  const source = html.replace(/<!--[\s\S]*?-->/g, "");
  const ids = [];
  const open = [];   // the sections being read: { id, depth, hasH2 }
  for (const m of source.matchAll(/<section\b([^>]*)>|<\/section>|<h2\b/g)) {
    if (m[0].startsWith("<section")) {
      open.push({ id: /\sid="([^"]*)"/.exec(m[1])?.[1] ?? null, top: open.length === 0, hasH2: false });
    } else if (m[0] === "</section>") {
      const s = open.pop();
      if (s?.top && s.id && s.hasH2) ids.push(s.id);
    } else if (open.length) {
      open[open.length - 1].hasH2 = true;
    }
  }
  return ids;
}

/** Every cross-reference in a text (HTML, or a module's source): [{ id, word, text }]; `id` is null for an href
 *  that is not "#id" on the same page. */
export function sectionRefsIn(text) {
  return [...text.replace(/\\"/g, '"').matchAll(REF)].map((m) => {
    const href = /\shref="([^"]*)"/.exec(` ${m[1]} ${m[3]}`)?.[1] ?? "";
    return { id: href.startsWith("#") ? href.slice(1) : null, href, word: m[2] ?? "", text: m[4] };
  });
}

/**
 * The page's HTML with every `<a href="#id" data-ref…></a>` given its text. `where` names the file in errors. Throws
 * for a reference to an id that is no numbered section of the page, one to another page, or one with text of its own
 * (a typed number that would not follow the section).
 */
export function renderSectionRefs(html, where, ids = sectionIds(html)) {
  return html.replace(REF, (whole, before, word = "", after, inner) => {
    const [ref] = sectionRefsIn(whole);
    if (ref.id == null) {
      throw new Error(`${where}: a data-ref link must point to a section of its own page ("#id"), not "${ref.href}"`);
    }
    const i = ids.indexOf(ref.id);
    if (i < 0) {
      throw new Error(`${where}: a cross-reference names "#${ref.id}", which is no section of the page `
        + `(its sections: ${ids.join(", ")})`);
    }
    const text = refText(word, i + 1).replace("\u00a0", "&nbsp;");
    if (inner.trim() && inner.trim() !== text) {   // (the text this build wrote is fine: a built page builds again)
      throw new Error(`${where}: the cross-reference to "#${ref.id}" has text of its own ("${inner.trim()}"): leave it `
        + "empty, the build writes the section's number");
    }
    return `<a${before} data-ref${word ? `="${word}"` : ""}${after}>${text}</a>`;
  });
}

/** Fill every cross-reference under `root` from the sections of `doc` (the table of contents' rule). */
export function fillSectionRefs(root, doc = root.ownerDocument ?? root) {
  const links = root.querySelectorAll?.("a[data-ref]") ?? [];
  if (!links.length) return;
  const ids = [...doc.querySelectorAll("article > section[id]")].filter((s) => s.querySelector(":scope > h2")).map((s) => s.id);
  for (const a of links) {
    const i = ids.indexOf(decodeURIComponent(a.getAttribute("href")?.replace(/^#/, "") ?? ""));
    if (i < 0) continue;   // a reference the build would refuse; nothing to write
    const text = refText(a.dataset.ref, i + 1);
    if (a.textContent !== text) a.textContent = text;   // unchanged text is not rewritten (no mutation, no loop)
  }
}

/** Fill the page's cross-references now, and those in HTML that enters its exercises' container ([data-exercises]:
 *  a prompt, a hint, a verdict, a solution) whenever it does. The widgets, whose DOM changes all the time, are not
 *  watched: their text cites no section. */
export function watchSectionRefs(doc = document) {
  if (!doc.body) return;
  fillSectionRefs(doc.body, doc);
  if (typeof MutationObserver === "undefined") return;
  const observer = new MutationObserver((records) => {
    for (const r of records) for (const node of r.addedNodes) {
      if (node.nodeType === 1) fillSectionRefs(node.parentElement ?? node, doc);
    }
  });
  for (const container of doc.querySelectorAll("[data-exercises]")) observer.observe(container, { childList: true, subtree: true });
}
