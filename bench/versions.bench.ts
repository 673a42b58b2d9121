/**
 * `npm run bench:versions`: the part of `npm run bench` that compares a GET and a create of a Deployment through
 * apps/v1 with the same through extensions/v1beta1, alone. Target: at most 1.15× the server CPU.
 */
import { compareApiVersions } from './support/api-versions';
import { runBenchmark } from './support/run';
import { Cluster } from './support/server';

runBenchmark(async () => {
  const cluster = await Cluster.start(1);
  try {
    console.log(await compareApiVersions(cluster));
  } finally {
    await cluster.stop();
  }
});
