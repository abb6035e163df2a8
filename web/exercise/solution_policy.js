// solution_policy.js — whether this site ships the exercises' reference solutions. A site assembled for a graded term
// (bash scripts/build.sh --site-only --no-solutions: scripts/withhold_solutions.mjs) leaves them out and rewrites the
// line below to "withheld"; every exercise then says so where its "Show solution" button would be (exercise.js).
export const SOLUTIONS = "shipped";
