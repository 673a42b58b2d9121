import fc, { Arbitrary } from 'fast-check';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { dump, load } from 'js-yaml';
import { encodeEnveloped } from '../../../src/apiserver/codec/protobuf/envelope';
import { KINDS } from '../kinds';
import { FuzzRequest } from './fuzz-request';

type Json = Record<string, unknown>;

/** A served resource and the manifest its bodies are made from. */
interface Target {
  root: string;
  resource: string;
  namespaced: boolean;
  manifest: Json;
}

const RC_MANIFEST = load(readFileSync(join(__dirname, '..', '..', 'fixtures', 'replicationcontroller.yaml'), 'utf8')) as Json;

const TARGETS: Target[] = [
  ...KINDS.map((k) => ({ root: `/apis/${k.group}/v1beta1`, resource: k.resource, namespaced: k.namespaced, manifest: k.manifest as Json })),
  { root: '/api/v1', resource: 'replicationcontrollers', namespaced: true, manifest: RC_MANIFEST },
];

/** Every byte but the unreserved ones percent-encoded: what a client puts on the wire for any string. */
const encodeAll = (text: string) =>
  [...Buffer.from(text, 'utf8')].map((b) => (/[A-Za-z0-9._~-]/.test(String.fromCharCode(b)) ? String.fromCharCode(b) : `%${b.toString(16).padStart(2, '0')}`)).join('');

/** Strings as they appear on the wire: plain, encoded, or the encodings that decode to nothing valid. */
const wireText: Arbitrary<string> = fc.oneof(
  fc.constantFrom('', 'a', 'fuzz-a', 'default', '%00', '%ff%fe', '%zz', '%', '%c3%28', '..', '.', 'a%2Fb', 'x'.repeat(300)),
  fc.string({ maxLength: 40 }).map(encodeAll),
  fc.string({ unit: 'binary', maxLength: 20 }).map(encodeAll),
);

/** A few names, so that generated writes meet objects that earlier cases created. */
const name = fc.oneof({ weight: 4, arbitrary: fc.constantFrom('fuzz-a', 'fuzz-b', 'web') }, { weight: 1, arbitrary: wireText });
const namespace = fc.oneof({ weight: 4, arbitrary: fc.constantFrom('default', 'fuzz') }, { weight: 1, arbitrary: wireText });
const subresource = fc.constantFrom('status', 'scale', 'rollback', 'finalize', 'x');

/** Paths of one resource: its collection (in a namespace or all), an object, a subresource, their /watch/ forms. */
const resourcePath = (target: Target): Arbitrary<string> =>
  fc
    .record({
      watch: fc.oneof({ weight: 5, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }),
      allNamespaces: fc.boolean(),
      namespace,
      name: fc.option(name, { nil: undefined }),
      subresource: fc.option(subresource, { nil: undefined, freq: 3 }),
    })
    .map(({ watch, allNamespaces, namespace: ns, name: n, subresource: sub }) => {
      const scope = target.namespaced && !(allNamespaces && n === undefined) ? `/namespaces/${ns}` : '';
      const item = n === undefined ? '' : `/${n}${sub === undefined ? '' : `/${sub}`}`;
      return `${target.root}${watch ? '/watch' : ''}${scope}/${target.resource}${item}`;
    });

const otherPath = fc.oneof(
  fc.constantFrom('/', '/api', '/apis', '/apis/extensions', '/apis/extensions/v1beta1', '/apis/federation/v1beta1', '/api/v1', '/version', '/openapi/v2', '/healthz', '/readyz', '/livez', '/metrics', '/apis/extensions/v2', '/apis//v1beta1'),
  fc.array(wireText, { maxLength: 6 }).map((segments) => `/${segments.join('/')}`),
);


const QUERY_VALUES: Record<string, string[]> = {
  labelSelector: ['app=web', 'app in (a,b)', '!app', 'a>1', 'app=', '=x', 'a in (', '%00', 'x'.repeat(70)],
  fieldSelector: ['metadata.name=web', 'metadata.namespace!=x', 'status.replicas=1', 'spec.x=1', 'a', 'metadata.name=%00'],
  resourceVersion: ['0', '1', '', 'abc', '-1', '99999999999999999999'],
  timeoutSeconds: ['1', '0', '-1', 'x', '2147483648', '1.5'],
  dryRun: ['All', 'all', '', 'Some'],
  pretty: ['true', '1', 'false', 'x'],
  export: ['true', '1', 'x'],
  exact: ['true', 'x'],
  watch: ['true', '1', 'false', 'x'],
  gracePeriodSeconds: ['0', '30', '-1', 'x', '99999999999'],
  orphanDependents: ['true', 'false', 'x'],
  propagationPolicy: ['Orphan', 'Background', 'Foreground', 'x'],
  includeUninitialized: ['true', '1', 'x'],
  limit: ['1', '0', '-1', 'x'],
  continue: ['', 'x', 'eyJ9'],
  fieldValidation: ['Strict', 'Warn', 'Ignore', 'x'],
  fieldManager: ['fuzz', 'x'.repeat(200)],
};

/** A value written as a client would put it in a URL: what may not stand there as it is, percent-encoded. */
const onTheWire = (value: string) => value.replace(/[^\x21-\x7e]|["<>\\^`{|}#&+]/g, (c) => encodeAll(c));

const queryPair = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...Object.keys(QUERY_VALUES)).chain((key) => fc.tuple(fc.constant(key), fc.oneof(fc.constantFrom(...QUERY_VALUES[key].map(onTheWire)), wireText))) },
  { weight: 1, arbitrary: fc.tuple(wireText, wireText) },
);

const query = fc.array(queryPair, { maxLength: 4 }).map((pairs) => pairs.map(([k, v]) => `${k}=${v}`).join('&'));

const CONTENT_TYPES = [
  'application/json',
  'application/yaml',
  'application/vnd.kubernetes.protobuf',
  'application/json-patch+json',
  'application/merge-patch+json',
  'application/strategic-merge-patch+json',
  'application/apply-patch+yaml',
  'application/json; charset=latin1',
  'text/plain',
  'application/',
  ';;;',
];

const ACCEPTS = [
  '*/*',
  'application/json',
  'application/yaml',
  'application/vnd.kubernetes.protobuf',
  'application/vnd.kubernetes.protobuf;stream=watch',
  'application/json;as=Table;v=v1;g=meta.k8s.io, application/json',
  'application/json;q=abc',
  'text/html',
  ',,',
];

/** A JSON value placed somewhere in a manifest: the value that breaks a type, a directive, or anything. */
const strangeValue: Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(null, '', 0, -1, 2147483648, 1.5, true, 'x', [], {}, [null], { $patch: 'delete' }, { $patch: 'replace' }, '__proto__', 1e308),
  fc.jsonValue({ maxDepth: 3 }),
);

/** A step down a document: the n-th member or item that exists there, or a key of its own (new or well known). */
type Step = number | string;

const NEW_KEYS = ['metadata', 'name', 'labels', 'finalizers', 'ownerReferences', 'initializer', 'spec', 'replicas', 'status', 'kind', 'apiVersion', 'generateName', 'resourceVersion', '__proto__', 'x'];

const step: Arbitrary<Step> = fc.oneof({ weight: 3, arbitrary: fc.nat(20) }, { weight: 1, arbitrary: fc.constantFrom(...NEW_KEYS) });

/** `document` with `value` at the end of `steps` (a copy: the fixture is not changed). */
function setAt(document: unknown, steps: Step[], value: unknown): unknown {
  if (steps.length === 0) return value;
  const [first, ...rest] = steps;
  if (Array.isArray(document) && typeof first === 'number' && document.length > 0) {
    const copy = [...document];
    const index = first % copy.length;
    copy[index] = setAt(copy[index], rest, value);
    return copy;
  }
  const object = document !== null && typeof document === 'object' && !Array.isArray(document) ? { ...(document as Json) } : {};
  const existing = Object.keys(object);
  const key = typeof first === 'number' ? (existing.length > 0 ? existing[first % existing.length] : 'x') : first;
  // defineProperty, so that a `__proto__` key is a member of the body and not the prototype of the copy
  Object.defineProperty(object, key, { value: setAt(object[key], rest, value), enumerable: true, writable: true, configurable: true });
  return object;
}

const mutation = fc.tuple(fc.array(step, { minLength: 1, maxLength: 6 }), strangeValue);

/** The target's fixture, named as the path may name it, with a few mutations (none: a valid object). */
const manifest = (target: Target) =>
  fc.tuple(fc.option(name, { nil: undefined }), fc.array(mutation, { maxLength: 3 })).map(([n, mutations]) => {
    let document: unknown = structuredClone(target.manifest);
    if (n !== undefined) document = setAt(document, ['metadata', 'name'], decodeURIComponentSafe(n));
    for (const [keys, value] of mutations) document = setAt(document, keys, value);
    return document;
  });

function decodeURIComponentSafe(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

const ALIAS_BOMB = ['a: &a [x, x, x, x, x, x, x, x, x]', ...'bcdefghi'.split('').map((c, i) => `${c}: &${c} [${Array(9).fill(`*${'abcdefghi'[i]}`).join(', ')}]`)].join('\n');

const jsonPatch = fc.array(
  fc.record({ op: fc.constantFrom('add', 'remove', 'replace', 'move', 'copy', 'test', '_get', 'x'), path: fc.constantFrom('/spec/replicas', '/metadata/labels/a', '/spec/template/spec/containers/0', '/metadata/name', '', '/', '/x/y', '/spec/template/spec/containers/-'), value: strangeValue, from: fc.constantFrom('/spec', '/metadata/labels', '/x') }),
  { maxLength: 4 },
);

const text = (s: string) => Buffer.from(s, 'utf8');

const body = (target: Target): Arbitrary<Buffer> => {
  const document = manifest(target);
  return fc.oneof(
    { weight: 6, arbitrary: document.map((m) => text(JSON.stringify(m))) },
    { weight: 2, arbitrary: document.map((m) => text(dump(JSON.parse(JSON.stringify(m))))) /* js-yaml dumps plain objects only */ },
    { weight: 2, arbitrary: document.map(protobufOrBytes) },
    { weight: 2, arbitrary: jsonPatch.map((p) => text(JSON.stringify(p))) },
    { weight: 1, arbitrary: fc.constantFrom(ALIAS_BOMB, 'metadata: &m {name: fuzz-a}\nspec: *m\nkind: Deployment', 'a: !!js/function "x"', '---\n---\n', 'null', '[]', '"x"', '{', '').map(text) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 200_000 }).map((depth) => text(`${'['.repeat(depth)}${']'.repeat(depth)}`)) },
    { weight: 1, arbitrary: fc.integer({ min: 1, max: 50_000 }).map((depth) => text(`${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`)) },
    { weight: 2, arbitrary: fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.from(bytes)) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 300 }).map((bytes) => Buffer.concat([Buffer.from('k8s\0', 'latin1'), Buffer.from(bytes)])) },
  );
};

function protobufOrBytes(document: unknown): Buffer {
  try {
    return encodeEnveloped(document as Json);
  } catch {
    return Buffer.concat([Buffer.from('k8s\0', 'latin1'), text(JSON.stringify(document))]);
  }
}

const headers = fc
  .record({
    accept: fc.option(fc.constantFrom(...ACCEPTS), { nil: undefined }),
    contentType: fc.option(fc.constantFrom(...CONTENT_TYPES), { nil: undefined }),
    encoding: fc.option(fc.constantFrom('gzip', 'identity', 'x'), { nil: undefined, freq: 8 }),
  })
  .map(({ accept, contentType, encoding }) => {
    const h: Record<string, string> = {};
    if (accept !== undefined) h.accept = accept;
    if (contentType !== undefined) h['content-type'] = contentType;
    if (encoding !== undefined) h['content-encoding'] = encoding;
    return h;
  });

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS', 'TRACE', 'PROPFIND'];

const objectPath = (target: Target, n: string) => `${target.root}${target.namespaced ? '/namespaces/default' : ''}/${target.resource}/${n}`;

/** A write a client could mean, at most one mutation away from valid, so that runs reach the store and its rules. */
const plausibleWrite = (target: Target): Arbitrary<FuzzRequest> =>
  fc
    .record({
      verb: fc.constantFrom('create', 'replace', 'patch', 'delete'),
      name: fc.constantFrom('fuzz-a', 'fuzz-b', 'web'),
      mutations: fc.array(mutation, { maxLength: 1 }),
      patch: fc.record({ labels: fc.dictionary(fc.constantFrom('a', 'b', 'app'), fc.constantFrom('x', 'y', '')) }),
      dryRun: fc.boolean(),
      policy: fc.option(fc.constantFrom('Orphan', 'Background', 'Foreground'), { nil: undefined }),
    })
    .map(({ verb, name: n, mutations, patch, dryRun, policy }) => {
      let document: unknown = setAt(structuredClone(target.manifest), ['metadata', 'name'], n);
      for (const [keys, value] of mutations) document = setAt(document, keys, value);
      const collection = objectPath(target, '').slice(0, -1);
      const query = [dryRun ? 'dryRun=All' : '', verb === 'delete' && policy ? `propagationPolicy=${policy}` : ''].filter(Boolean).join('&');
      const json = { 'content-type': 'application/json' };
      switch (verb) {
        case 'create':
          return { method: 'POST', path: collection, query, headers: json, body: text(JSON.stringify(document)) };
        case 'replace':
          return { method: 'PUT', path: objectPath(target, n), query, headers: json, body: text(JSON.stringify(document)) };
        case 'patch':
          return { method: 'PATCH', path: objectPath(target, n), query, headers: { 'content-type': 'application/merge-patch+json' }, body: text(JSON.stringify({ metadata: patch })) };
        default:
          return { method: 'DELETE', path: objectPath(target, n), query, headers: {}, body: undefined };
      }
    });

/** Anything: any method, path, query, headers and body, leaning towards the target's paths and kind. */
const anyRequest = (target: Target): Arbitrary<FuzzRequest> =>
  fc
    .record({
      method: fc.oneof({ weight: 8, arbitrary: fc.constantFrom(...METHODS.slice(0, 5)) }, { weight: 1, arbitrary: fc.constantFrom(...METHODS.slice(5)) }),
      path: fc.oneof({ weight: 6, arbitrary: resourcePath(target) }, { weight: 1, arbitrary: otherPath }),
      query,
      dryRun: fc.boolean(),
      headers,
      body: fc.option(body(target), { nil: undefined, freq: 5 }),
    })
    .map(({ method, path: p, query: q, dryRun, headers: h, body: b }) => ({
      method,
      path: p,
      query: dryRun ? [q, 'dryRun=All'].filter(Boolean).join('&') : q,
      headers: h,
      body: method === 'GET' || method === 'HEAD' ? undefined : b,
    }));

/** The requests of a fuzz run: mostly anything, a third writes a client could mean. */
export const fuzzRequest: Arbitrary<FuzzRequest> = fc
  .constantFrom(...TARGETS)
  .chain((target) => fc.oneof({ weight: 2, arbitrary: anyRequest(target) }, { weight: 1, arbitrary: plausibleWrite(target) }));
