// The table of contents: an ordered list of links to `article > section[id] > h2`, filled into nav.toc.
// The headings' markup is cloned (so inline math in a heading shows as math once rendered), minus ids
// and links, which must not be duplicated inside the list.

/** Fill `nav` from the top-level sections of `article`. Returns the number of entries. */
export function fillToc(nav, article) {
  if (!nav || !article) return 0;
  const headings = [...article.querySelectorAll(":scope > section[id] > h2")];
  nav.replaceChildren();
  if (headings.length === 0) { nav.hidden = true; return 0; }
  const title = document.createElement("p");
  title.className = "toc-title";
  title.textContent = "Contents";
  const list = document.createElement("ol");
  for (const h2 of headings) {
    const a = document.createElement("a");
    a.href = `#${encodeURIComponent(h2.parentElement.id)}`;
    a.append(...cloneInline(h2));
    const li = document.createElement("li");
    li.append(a);
    list.append(li);
  }
  nav.hidden = false;
  nav.append(title, list);
  return headings.length;
}

function cloneInline(h2) {
  const copy = h2.cloneNode(true);
  for (const el of copy.querySelectorAll("[id]")) el.removeAttribute("id");
  for (const a of copy.querySelectorAll("a")) a.replaceWith(...a.childNodes);
  return [...copy.childNodes];
}
