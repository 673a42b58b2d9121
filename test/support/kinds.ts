import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { EXTENSIONS_KINDS } from '../../src/apis/extensions/extensions.kinds';
import { FEDERATION_KINDS } from '../../src/apis/federation/federation.kinds';

export interface KindCase {
  resource: string;
  kind: string;
  group: string;
  namespaced: boolean;
  /** the fixture in test/fixtures, named after the kind */
  file: string;
  /** parsed fixture */
  manifest: any;
}

/** The served kinds of both groups (not extensions' ReplicationController placeholder), each with its fixture. */
export const KINDS: KindCase[] = [...EXTENSIONS_KINDS, ...FEDERATION_KINDS]
  .filter((def) => def.verbs.length > 0)
  .map((def) => {
    const file = join(__dirname, '..', 'fixtures', `${def.kind.toLowerCase()}.yaml`);
    const { resource, kind, group, namespaced } = def;
    return { resource, kind, group, namespaced, file, manifest: load(readFileSync(file, 'utf8')) };
  });

/** The collection path of a kind, in `namespace` for namespaced kinds. */
export function collectionPath(k: KindCase, namespace = 'default'): string {
  const scope = k.namespaced ? `/namespaces/${namespace}` : '';
  return `/apis/${k.group}/v1beta1${scope}/${k.resource}`;
}

export function itemPath(k: KindCase, name: string, namespace = 'default'): string {
  return `${collectionPath(k, namespace)}/${name}`;
}

/** The fixture row of a kind. */
export function kindNamed(kind: string): KindCase {
  const found = KINDS.find((k) => k.kind === kind);
  if (!found) throw new Error(`no fixture for ${kind}`);
  return found;
}
