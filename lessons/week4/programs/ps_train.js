// ps_train.js — the program every Worker of Week 4's parameter server runs: ranks 0 … K−1 serve the key
// ranges of θ (ps_server.js), the others work (ps_worker.js).
//
// ctx.input: { model, batch, lr, seed, servers K, iterations (clocks per worker; rounds under bsp/backup),
//              regime: "asp" | "ssp" | "bsp" | "backup", staleness s (ssp), backup b, stalenessAware,
//              times: [worker][clock] compute times of the speed model (core.speedTimes), delayMs per unit,
//              evalBatch }

export async function main(ctx) {
  if (!ctx.core) throw new Error("the parameter server needs the wasm core in every Worker (ctx.core is null)");
  const config = ctx.input;
  if (!(config.servers >= 1 && config.servers < ctx.size)) {
    throw new Error(`${config.servers} server shards and ${ctx.size - config.servers} workers: give the run at least one of each`);
  }
  return ctx.rank < config.servers ? serveShard(ctx, config) : workLoop(ctx, config);
}
