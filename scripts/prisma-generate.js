// Runs `prisma generate` without Prisma's schema engine, which is downloaded from outside the package registries and
// is not needed to generate the client: Prisma only checks that the file it is pointed at exists.
const { execFileSync } = require('node:child_process');

const env = { ...process.env, PRISMA_SCHEMA_ENGINE_BINARY: process.env.PRISMA_SCHEMA_ENGINE_BINARY || process.execPath };
execFileSync(process.execPath, [require.resolve('prisma/build/index.js'), 'generate'], { stdio: ['ignore', 'ignore', 'inherit'], env });
