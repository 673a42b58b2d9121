/**
 * `npm run bench:secrets`: the part of `npm run bench` that compares a Secret GET (values encrypted with aesgcm) with
 * a ConfigMap GET of the same size, alone. Target: at most 1.2× the server CPU.
 */
import { runBenchmark } from './support/run';
import { compareSecretGets } from './support/secret-get';
import { Cluster } from './support/server';

runBenchmark(async () => {
  const cluster = await Cluster.start(1);
  try {
    console.log(await compareSecretGets(cluster));
  } finally {
    await cluster.stop();
  }
});
