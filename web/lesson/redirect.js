// redirect.js — the script of a page that has moved (scripts/assemble_site.mjs writes one for the site root and
// for every URL of the layout before web/ moved out of lessons/): go to the new page at once, keeping what the
// old URL asked for — its query and its fragment (…/week3/#ddp → …/lessons/week3/#ddp), which a meta refresh
// would drop. A classic script, not a module: it runs before the page is parsed any further.
(() => {
  const target = new URL(document.currentScript.dataset.target, location.href);
  target.search = location.search;
  target.hash = location.hash;
  location.replace(target.href);
})();
