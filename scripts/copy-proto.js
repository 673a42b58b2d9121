// Compiled code loads the protobuf message definitions from beside it: copy them from src/ into the output folder
// (dist/ unless another folder that mirrors src/ is named).
const { cpSync } = require('node:fs');
const { join } = require('node:path');

const dir = join('apiserver', 'codec', 'protobuf', 'proto');
const root = join(__dirname, '..');
cpSync(join(root, 'src', dir), join(root, process.argv[2] ?? 'dist', dir), { recursive: true });
