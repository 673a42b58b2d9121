import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';

export interface KindCase {
  resource: string;
  kind: string;
  group: string;
  namespaced: boolean;
  /** the fixture in test/fixtures */
  file: string;
  /** parsed fixture */
  manifest: any;
}

const row = (resource: string, kind: string, group: string, namespaced: boolean, fixture: string): KindCase => {
  const file = join(__dirname, '..', 'fixtures', `${fixture}.yaml`);
  return { resource, kind, group, namespaced, file, manifest: load(readFileSync(file, 'utf8')) };
};

/** One fixture per served kind of both groups. */
export const KINDS: KindCase[] = [
  row('daemonsets', 'DaemonSet', 'extensions', true, 'daemonset'),
  row('deployments', 'Deployment', 'extensions', true, 'deployment'),
  row('ingresses', 'Ingress', 'extensions', true, 'ingress'),
  row('networkpolicies', 'NetworkPolicy', 'extensions', true, 'networkpolicy'),
  row('replicasets', 'ReplicaSet', 'extensions', true, 'replicaset'),
  row('podsecuritypolicies', 'PodSecurityPolicy', 'extensions', false, 'podsecuritypolicy'),
  row('thirdpartyresources', 'ThirdPartyResource', 'extensions', false, 'thirdpartyresource'),
  row('clusters', 'Cluster', 'federation', false, 'cluster'),
];

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
