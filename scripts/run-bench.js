// Runs one benchmark of bench/: `node scripts/run-bench.js protobuf` runs bench/protobuf.bench.ts. src/ and bench/
// are compiled into .bench-build/ (the sources' layout), beside the migrations the server reads from its own location.
const { execFileSync } = require('node:child_process');
const { cpSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const out = join(root, '.bench-build');
execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(root, 'tsconfig.bench.json')], { stdio: 'inherit' });
cpSync(join(root, 'prisma', 'migrations'), join(out, 'prisma', 'migrations'), { recursive: true });
execFileSync(process.execPath, [join(out, 'bench', `${process.argv[2]}.bench.js`)], { stdio: 'inherit' });
