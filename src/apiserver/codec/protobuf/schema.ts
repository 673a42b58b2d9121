import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Root, Type } from 'protobufjs';

/** The project's message definitions; the build copies this folder next to the compiled code. */
export const PROTO_DIR = join(__dirname, 'proto');

/** The proto package holding the kinds of each group version. */
const GROUP_PACKAGES: Record<string, string> = {
  v1: 'k8s.io.api.core.v1',
  'autoscaling/v1': 'k8s.io.api.autoscaling.v1',
  'extensions/v1beta1': 'k8s.io.api.extensions.v1beta1',
  'federation/v1beta1': 'k8s.io.kubernetes.federation.apis.federation.v1beta1',
};

const META_PACKAGE = 'k8s.io.apimachinery.pkg.apis.meta.v1';

/** The meta messages that travel as objects of their own, in any group version. */
const META_KINDS = new Set(['Status', 'DeleteOptions', 'APIVersions', 'APIGroupList', 'APIGroup', 'APIResourceList']);

let root: Root | undefined;
/** found messages by package list and kind (only found ones: a request may name any kind) */
const kindTypes = new Map<string, Type>();

/** Every definition in PROTO_DIR, loaded and resolved once. */
export function protoRoot(): Root {
  if (!root) {
    const files = readdirSync(PROTO_DIR).filter((file) => file.endsWith('.proto'));
    root = new Root().loadSync(
      files.map((file) => join(PROTO_DIR, file)),
      { keepCase: true },
    );
    root.resolveAll();
  }
  return root;
}

/** A message by its full name, e.g. `k8s.io.apimachinery.pkg.runtime.Unknown`. */
export function messageType(fullName: string): Type {
  return protoRoot().lookupType(fullName);
}

/**
 * The message of a kind: looked up in the package of its group version, then among the meta kinds. Without an
 * apiVersion (the extensions discovery documents have none) every package is searched.
 */
export function kindMessageType(apiVersion: string | undefined, kind: string): Type | undefined {
  const packages = apiVersion === undefined ? Object.values(GROUP_PACKAGES) : [GROUP_PACKAGES[apiVersion]].filter(Boolean);
  const key = `${packages.join(',')}/${kind}`;
  let type = kindTypes.get(key);
  if (!type && /^[A-Za-z]\w*$/.test(kind)) {
    const found = packages.map((pkg) => protoRoot().lookup(`${pkg}.${kind}`)).find((t) => t instanceof Type) as Type | undefined;
    type = found ?? (META_KINDS.has(kind) ? messageType(`${META_PACKAGE}.${kind}`) : undefined);
    if (type) kindTypes.set(key, type);
  }
  return type;
}
