// The compiled server loads its protobuf message definitions from beside its code: copy them into dist/.
const { cpSync } = require('node:fs');
const { join } = require('node:path');

const dir = join('common', 'codec', 'protobuf', 'proto');
cpSync(join(__dirname, '..', 'src', dir), join(__dirname, '..', 'dist', dir), { recursive: true });
