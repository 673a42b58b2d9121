import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Field, MapField, Root, Type } from 'protobufjs';
import { messageType } from '../../src/apiserver/codec/protobuf/schema';
import { PROTO_DIR } from '../support/protobuf';
import '../support/served-types';

/**
 * The server derives its protobuf messages from the kinds' declared types; the fixtures are the Kubernetes 1.7
 * messages as written from its wire format. Every fixture message must be derived with the same fields: names,
 * numbers, types and cardinality, so that what the server writes is what a 1.7 client reads.
 */
const fixtures = new Root().loadSync(
  readdirSync(PROTO_DIR)
    .filter((file) => file.endsWith('.proto'))
    .map((file) => join(PROTO_DIR, file)),
  { keepCase: true },
);
fixtures.resolveAll();

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
