// site_version.js — which build of the site this page belongs to: `version` is the service worker's (a hash of every
// file of the site and the commit), `commit` the git commit the site was assembled from (null outside a git checkout).
// Served from the source tree both are "source"; scripts/assemble_site.mjs rewrites the line below. A submission for
// grading carries them (web/exercise/submission.js), so a lecturer sees which version each learner worked on.
export const SITE = { version: "source", commit: "source" };
