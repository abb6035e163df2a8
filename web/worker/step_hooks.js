// step_hooks.js — inside a rank's Worker, the stepper of a step-through run: the instrumented code
// (exercise/step_instrument.js) calls it before every statement, and it pauses the rank there until the page
// says go. It also tells the page, as they happen, the messages this rank sends and receives, so the page can
// draw what is in flight and know which blocked ranks a message will wake (cluster/step_session.js).
//
// To the page:   step { kind: "pause", site, vars }      paused before statement `site`, with its variables
//                step { kind: "sent", to, tag, bytes, preview } · step { kind: "recvd", from, tag, bytes, preview }
// From the page: step { action: "go" }   run to the next statement ·  step { action: "free" }  never pause again
//
// In a run that is not a step-through none of this exists: the code is not instrumented and ctx is not wrapped.
import { describeVariables, preview } from "./step_values.js";
import { messageBytes } from "./message_size.js";

export const STEP_GLOBAL = "__dsmlStep";   // the name the instrumented code calls its stepper by

export class StepHooks {
  #go = null;       // resolve() of the pause in progress
  #free = false;
  #site = -1;
  #vars = null;

  // sites: the instrumenter's sites (their names); post(message) sends to the page with the run's id.
  constructor({ sites, post }) {
    this.sites = sites;
    this.post = post;
  }

  // Made visible to the code loaded next (the instrumented code reads it once, when it is evaluated); null: none.
  static install(hooks) {
    if (hooks) globalThis[STEP_GLOBAL] = hooks;
    else delete globalThis[STEP_GLOBAL];
  }

  // Called before statement `site`; true: the code then awaits pause().
  at(site, vars) {
    if (this.#free) return false;
    this.#site = site;
    this.#vars = vars;
    return true;
  }

  pause() {
    let values = null;
    try { values = this.#vars(); } catch { /* a variable in its TDZ (a switch's case): show none */ }
    const names = this.sites[this.#site]?.names ?? [];
    this.post({ kind: "pause", site: this.#site, vars: values ? describeVariables(names, values) : [] });
    return new Promise((resolve) => { this.#go = resolve; });
  }

  control({ action }) {
    if (action === "free") this.#free = true;
    const go = this.#go;
    this.#go = null;
    go?.();
  }

  // ctx with send and recv that also report to the page (the data is described before a move detaches it).
  wrap(ctx) {
    return {
      ...ctx,
      send: (to, data, options) => {
        const described = { to, tag: options?.tag ?? 0, bytes: messageBytes(data), preview: preview(data) };
        const sent = ctx.send(to, data, options);
        this.post({ kind: "sent", ...described });
        return sent;
      },
      recv: (from, options) => {
        const received = ctx.recv(from, options);
        // The base then(): awaiting a recv is what marks a rank blocked (rank_blocking.js); watching it is not.
        Promise.prototype.then.call(received, (data) => {
          this.post({ kind: "recvd", from, tag: options?.tag ?? 0, bytes: messageBytes(data), preview: preview(data) });
        });
        return received;
      },
      recvAny: (options) => {
        const received = ctx.recvAny(options);
        Promise.prototype.then.call(received, ({ from, data }) => {
          this.post({ kind: "recvd", from, tag: options?.tag ?? 0, bytes: messageBytes(data), preview: preview(data) });
        });
        return received;
      },
    };
  }
}
