#!/usr/bin/env node
// `npm run fuzz -- --runs N [--seed S]`: the fuzz suite of `npm test` (test/fuzz.test.ts), for N generated requests.
const { spawnSync } = require('node:child_process');

const args = process.argv.slice(2);
const value = (flag) => {
  const i = args.indexOf(flag);
  return i >= 0 ? args[i + 1] : undefined;
};
const runs = value('--runs') ?? '20000';
const seed = value('--seed');
if (!/^\d+$/.test(runs) || (seed !== undefined && !/^-?\d+$/.test(seed))) {
  console.error('usage: npm run fuzz -- [--runs N] [--seed S]');
  process.exit(2);
}
const env = { ...process.env, FUZZ_RUNS: runs, ...(seed === undefined ? {} : { FUZZ_SEED: seed }) };
const jest = ['--experimental-vm-modules', '--disable-warning=ExperimentalWarning', 'node_modules/jest/bin/jest.js', '--runInBand', 'test/fuzz.test.ts'];
const result = spawnSync(process.execPath, jest, { env, stdio: 'inherit' });
process.exit(result.status ?? 1);
