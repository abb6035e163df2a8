// exercise_aliases.js — the previous ids of renamed exercises: { "old-id": "new-id" }. A learner's progress is stored
// under an exercise's id (web/storage/progress.js), so an id once published (lessons/published_ids.json) stays: an
// exercise that is renamed keeps its old id here, and the progress saved under it is read as the new id's
// (web/storage/progress_schema.js, carryAliases). The new id is an exercise of the course today; an exercise renamed
// twice has both old ids here, each pointing at the newest. One table for the course, read by every page — the
// course index included, which counts a learner's solved exercises without loading any week's exercise modules.
//   "w2-ring": "w2-ring-time",      (an example: an entry is written when an exercise is renamed)
export const ALIASES = {
};
