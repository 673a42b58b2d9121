// `npm start`: generates the Prisma client and compiles the server only when a source is newer than the last build,
// then runs the server in this very process, so that the signals a process manager sends to what it started (npm
// runs this with `exec`) reach the server, which stops its embedded PostgreSQL on the way out.
const { execFileSync } = require('node:child_process');
const { existsSync, readdirSync, statSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const BUILD_STAMP = join(root, 'dist', '.built');
const GENERATED_STAMP = join(root, 'src', 'storage', 'database', 'generated', 'prisma', 'client.ts');

/** The newest modification time of the files at these paths (folders walked whole), 0 when none exists. */
function newest(paths) {
  let time = 0;
  for (const path of paths) {
    if (!existsSync(path)) continue;
    const stat = statSync(path);
    if (stat.isDirectory()) time = Math.max(time, newest(readdirSync(path).map((entry) => join(path, entry))));
    else time = Math.max(time, stat.mtimeMs);
  }
  return time;
}

const modified = (path) => (existsSync(path) ? statSync(path).mtimeMs : 0);
const schema = [join(root, 'prisma', 'schema.prisma'), join(root, 'prisma.config.ts'), join(root, 'package-lock.json')];

if (modified(GENERATED_STAMP) < newest(schema)) {
  process.stderr.write('pgkube: generating the Prisma client...\n');
  execFileSync(process.execPath, [join(__dirname, 'prisma-generate.js')], { stdio: 'inherit' });
}
const sources = [join(root, 'src'), join(root, 'tsconfig.json'), join(root, 'tsconfig.build.json'), ...schema];
if (modified(BUILD_STAMP) < newest(sources)) {
  process.stderr.write('pgkube: compiling the server...\n');
  execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(root, 'tsconfig.build.json')], { stdio: 'inherit' });
  writeFileSync(BUILD_STAMP, `${new Date().toISOString()}\n`);
}
require(join(root, 'dist', 'main.js'));
