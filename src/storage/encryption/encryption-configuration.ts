import { isPlainObject } from '../../apimachinery/meta/kube-object';
import { readFileSync } from 'node:fs';
import { load } from 'js-yaml';
import { KEY_SIZES, keyedCipher, KeyedProvider } from './providers';
import { IDENTITY, ValueProvider, ValueTransformer } from './value-transformer';

/** The resources whose values can be encrypted, by their name in a configuration (the core group's plural). */
export const ENCRYPTABLE_RESOURCES = ['secrets', 'configmaps'] as const;

export type EncryptableResource = (typeof ENCRYPTABLE_RESOURCES)[number];

/** The transformer of each resource a configuration names; a resource it does not name is stored as it is. */
export type ResourceTransformers = ReadonlyMap<EncryptableResource, ValueTransformer>;

type Json = Record<string, unknown>;


function list(value: unknown, where: string): unknown[] {
  if (!Array.isArray(value) || value.length === 0) throw new Error(`${where}: Required value: a non-empty list`);
  return value;
}

function keysOf(provider: KeyedProvider, config: unknown, where: string): ValueProvider[] {
  const keys = list(isPlainObject(config) ? config.keys : undefined, `${where}.keys`);
  const names = new Set<string>();
  return keys.map((key, i) => {
    const at = `${where}.keys[${i}]`;
    const { name, secret } = isPlainObject(key) ? key : ({} as Json);
    if (typeof name !== 'string' || name === '') throw new Error(`${at}.name: Required value`);
    if (name.includes(':')) throw new Error(`${at}.name: Invalid value: "${name}": should not contain ':'`);
    if (names.has(name)) throw new Error(`${at}.name: Duplicate value: "${name}"`);
    names.add(name);
    if (typeof secret !== 'string' || secret === '') throw new Error(`${at}.secret: Required value`);
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(secret) || secret.length % 4 !== 0) {
      throw new Error(`${at}.secret: Invalid value: "REDACTED": secret is not a valid base64 string`);
    }
    const bytes = Buffer.from(secret, 'base64');
    const sizes: readonly number[] = KEY_SIZES[provider];
    if (!sizes.includes(bytes.length)) {
      throw new Error(`${at}.secret: Invalid value: "REDACTED": secret is not of the expected length, got ${bytes.length}, expected one of [${sizes.join(' ')}]`);
    }
    return keyedCipher(provider, name, bytes);
  });
}

/** One element of `providers`: exactly one provider, identity or one with keys. */
function providerOf(element: unknown, where: string): ValueProvider[] {
  const types = isPlainObject(element) ? Object.keys(element) : [];
  if (types.length !== 1) {
    throw new Error(`${where}: Invalid value: ${types.length === 0 ? 'no provider given' : 'more than one provider specified in a single element, should split into different list elements'}`);
  }
  const [type] = types;
  const config = (element as Json)[type];
  if (type === IDENTITY) return [IDENTITY];
  if (Object.hasOwn(KEY_SIZES, type)) return keysOf(type as KeyedProvider, config, `${where}.${type}`);
  throw new Error(`${where}: Unsupported value: "${type}": supported values: "aesgcm", "aescbc", "secretbox", "identity" (kms is not supported)`);
}

/**
 * Reads an `apiserver.config.k8s.io/v1` EncryptionConfiguration (YAML or JSON), checked as kube-apiserver checks its
 * `--encryption-provider-config`; a bad one is an Error naming the file and the field.
 */
export function parseEncryptionConfiguration(text: string, source: string): ResourceTransformers {
  const fail = (message: string): never => {
    throw new Error(`${source}: ${message}`);
  };
  let doc: unknown;
  try {
    doc = load(text);
  } catch (error) {
    fail(`not YAML or JSON: ${(error as Error).message}`);
  }
  if (!isPlainObject(doc) || doc.kind !== 'EncryptionConfiguration' || doc.apiVersion !== 'apiserver.config.k8s.io/v1') {
    fail(`expected kind EncryptionConfiguration of apiserver.config.k8s.io/v1, got ${String(isPlainObject(doc) ? doc.kind : doc)} of ${String(isPlainObject(doc) ? doc.apiVersion : '')}`);
  }
  const transformers = new Map<EncryptableResource, ValueTransformer>();
  try {
    list((doc as Json).resources, 'resources').forEach((entry, i) => {
      const where = `resources[${i}]`;
      const { resources, providers } = isPlainObject(entry) ? entry : ({} as Json);
      const chain = new ValueTransformer(list(providers, `${where}.providers`).flatMap((p, j) => providerOf(p, `${where}.providers[${j}]`)));
      list(resources, `${where}.resources`).forEach((name, j) => {
        const at = `${where}.resources[${j}]`;
        if (!(ENCRYPTABLE_RESOURCES as readonly unknown[]).includes(name)) {
          throw new Error(`${at}: Unsupported value: ${JSON.stringify(name)}: supported values: "secrets", "configmaps" (the resources whose values this server encrypts)`);
        }
        if (transformers.has(name as EncryptableResource)) throw new Error(`${at}: Duplicate value: ${JSON.stringify(name)}`);
        transformers.set(name as EncryptableResource, chain);
      });
    });
  } catch (error) {
    fail((error as Error).message);
  }
  return transformers;
}

/** The configuration in a file; none (no file): nothing is encrypted, as kube-apiserver without the flag. */
export function readEncryptionConfiguration(file: string | undefined): ResourceTransformers {
  if (!file) return new Map();
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`--encryption-provider-config: cannot read ${file}: ${(error as Error).message}`);
  }
  return parseEncryptionConfiguration(text, `--encryption-provider-config ${file}`);
}
