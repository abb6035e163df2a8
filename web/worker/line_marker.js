// line_marker.js — the name of the line marker the learner's code is given (cluster/line_marks.js inserts the calls;
// rank_worker.js and the judge cluster, local_run.js, define what a call does). A module of its own so a Worker
// knows the name without loading the parser.
export const MARK = "__dsmlAt";
