// cluster_contract.test.mjs — the cluster contract (tests/contract/cluster_contract.mjs) on the judge cluster
// (web/cluster/local_cluster.js), in Node; tests/e2e/cluster.test.mjs runs the same cases on the Workers.
//   node --test tests/web/cluster_contract.test.mjs
import { test } from "node:test";
import { LocalCluster } from "../../web/cluster/local_cluster.js";
import { CONTRACT } from "../contract/cluster_contract.mjs";
import { runCase } from "../contract/run_case.mjs";

const clusters = new Map();   // one cluster per size, reused from case to case as the page reuses its Workers
const cluster = (size) => clusters.get(size) ?? clusters.set(size, new LocalCluster(size)).get(size);

for (const c of CONTRACT) {
  test(c.name, async () => c.check(await runCase(cluster(c.size), c)));
}
