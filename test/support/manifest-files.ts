import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dump } from 'js-yaml';
import { KindCase } from './kinds';

/**
 * A writer of manifest files of a kind's fixture under another name and replica count, in a temporary folder that
 * is removed after the test file's tests.
 */
export function manifestFiles(kind: KindCase, prefix: string): (name: string, replicas: number) => string {
  const dir = mkdtempSync(join(tmpdir(), `pgkube-${prefix}-`));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  return (name, replicas) => {
    const file = join(dir, `${name}-${replicas}.yaml`);
    const { metadata, spec } = kind.manifest;
    writeFileSync(file, dump({ ...kind.manifest, metadata: { ...metadata, name }, spec: { ...spec, replicas } }));
    return file;
  };
}
