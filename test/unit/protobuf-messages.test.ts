import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Field, MapField, Root, Type } from 'protobufjs';
import { messageType } from '../../src/apiserver/codec/protobuf/schema';
import { LATER_PROTO_DIR, PROTO_DIR } from '../support/protobuf';
import '../support/served-types';

/**
 * The server derives its protobuf messages from the kinds' declared types; the fixtures are the Kubernetes 1.7
 * messages as written from its wire format. Every fixture message must be derived with the same fields: names,
 * numbers, types and cardinality, so that what the server writes is what a 1.7 client reads.
 */
const loadFixtures = (dirs: string[]) => {
  const root = new Root();
  root.resolvePath = (_origin, target) => dirs.map((dir) => join(dir, target)).find((path) => existsSync(path)) ?? target;
  root.loadSync(readdirSync(dirs[0]).filter((file) => file.endsWith('.proto')).map((file) => join(dirs[0], file)), { keepCase: true });
  root.resolveAll();
  return root;
};
const fixtures = loadFixtures([PROTO_DIR]);

function messages(namespace: { nestedArray: unknown[] }): Type[] {
  return namespace.nestedArray.flatMap((nested) => {
    if (nested instanceof Type) return [nested];
    return (nested as { nestedArray?: unknown[] }).nestedArray ? messages(nested as { nestedArray: unknown[] }) : [];
  });
}

const describeField = (field: Field) => {
  field.resolve();
  const type = field.resolvedType ? field.resolvedType.fullName : field.type;
  const map = field instanceof MapField ? `map<${field.keyType}>` : '';
  return `${field.name} = ${field.id}: ${map}${field.repeated ? 'repeated ' : ''}${type}`;
};

const fieldsOf = (type: Type) => type.fieldsArray.map(describeField).sort();

const FIXTURE_MESSAGES = messages(fixtures);

it('has the 1.7 fixtures to compare with', () => {
  expect(FIXTURE_MESSAGES.length).toBeGreaterThan(150);
});

/** Fields current clients expect that 1.7 did not have, with upstream's numbers (meta/v1 generated.proto). */
const ADDED_SINCE_1_7: Record<string, string[]> = {
  'k8s.io.apimachinery.pkg.apis.meta.v1.ObjectMeta': ['managedFields = 17: repeated .k8s.io.apimachinery.pkg.apis.meta.v1.ManagedFieldsEntry'],
};

it.each(FIXTURE_MESSAGES.map((type) => [type.fullName.slice(1), type] as const))('%s is derived with the 1.7 fields', (name, fixture) => {
  expect(fieldsOf(messageType(name))).toEqual([...fieldsOf(fixture), ...(ADDED_SINCE_1_7[name] ?? [])].sort());
});

/** networking.k8s.io/v1 and policy/v1beta1 as upstream has them: the server's messages have the same numbers and types. */
const LATER_MESSAGES = messages(loadFixtures([LATER_PROTO_DIR, PROTO_DIR])).filter((type) => /\.(networking|policy)\./.test(type.fullName));

/** A field without its name, which Go spells from its Go name (aPIGroup) where JSON has its own (apiGroup). */
const numbered = (type: Type) => fieldsOf(type).map((field) => field.replace(/^\S+ /, ''));

it.each(LATER_MESSAGES.map((type) => [type.fullName.slice(1), type] as const))('%s has upstream’s fields', (name, fixture) => {
  expect(numbered(messageType(name))).toEqual(numbered(fixture));
});
