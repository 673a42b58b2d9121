import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { strategicMergeSchema, TypeFacts } from '../src/common/patch/strategic-merge-schema';
import { KINDS } from './support/kinds';

/** The 1.7 OpenAPI documents, in shared/ beside the repository. */
const REFERENCE = join(__dirname, '..', '..', 'shared', 'reference');
const DOCUMENTS = ['kube-1.7-swagger.json', 'federation-1.7-swagger.json'];

interface Property {
  type?: string;
  $ref?: string;
  items?: { $ref?: string };
  additionalProperties?: { $ref?: string };
  'x-kubernetes-patch-strategy'?: string;
  'x-kubernetes-patch-merge-key'?: string;
}

interface Definition {
  properties?: Record<string, Property>;
  'x-kubernetes-group-version-kind'?: { group: string; version: string; kind: string }[];
}

type Facts = Record<string, string>;

const describeFact = (strategy: string, mergeKey?: string) => `${strategy} ${mergeKey ?? '(primitives)'}`;

/** Every list field with a patch strategy below a definition, by dotted path (a `*` stands for any map key). */
function swaggerFacts(definitions: Record<string, Definition>, name: string, path: string[] = [], seen = [name]): Facts {
  const facts: Facts = {};
  for (const [field, property] of Object.entries(definitions[name].properties ?? {})) {
    const fieldPath = [...path, field];
    const strategy = property['x-kubernetes-patch-strategy'];
    // a strategy on a field that is not a list (e.g. LabelSelectorRequirement.key) has no effect
    if (strategy && property.type === 'array') facts[fieldPath.join('.')] = describeFact(strategy, property['x-kubernetes-patch-merge-key']);
    const mapValue = property.additionalProperties?.$ref;
    const ref = property.$ref ?? property.items?.$ref ?? mapValue;
    if (!ref) continue;
    const target = ref.replace('#/definitions/', '');
    if (seen.includes(target)) throw new Error(`recursive type ${target} below ${name}`);
    Object.assign(facts, swaggerFacts(definitions, target, mapValue ? [...fieldPath, '*'] : fieldPath, [...seen, target]));
  }
  return facts;
}

function tableFacts(type: TypeFacts, path: string[] = []): Facts {
  const facts: Facts = {};
  for (const [field, fieldFacts] of Object.entries(type)) {
    const fieldPath = [...path, field];
    if (fieldFacts.strategy) facts[fieldPath.join('.')] = describeFact(fieldFacts.strategy, fieldFacts.mergeKey);
    if (fieldFacts.fields) Object.assign(facts, tableFacts(fieldFacts.fields, fieldPath));
  }
  return facts;
}

/** The served kinds, and Scale (the body of the scale subresources). */
const PATCHED_KINDS = [
  ...KINDS.map((k) => ({ group: k.group, version: 'v1beta1', kind: k.kind })),
  { group: 'extensions', version: 'v1beta1', kind: 'Scale' },
  { group: '', version: 'v1', kind: 'ReplicationController' },
  { group: 'autoscaling', version: 'v1', kind: 'Scale' },
];

const definitionsOf = (document: string): Record<string, Definition> =>
  JSON.parse(readFileSync(join(REFERENCE, document), 'utf8')).definitions;
const LOADED = DOCUMENTS.map((document) => ({ document, definitions: definitionsOf(document) }));

describe.each(LOADED)('the strategic merge facts against $document', ({ definitions }) => {
  const rootOf = (group: string, version: string, kind: string) =>
    Object.keys(definitions).find((name) =>
      definitions[name]['x-kubernetes-group-version-kind']?.some((g) => g.group === group && g.version === version && g.kind === kind),
    );
  const described = PATCHED_KINDS.filter((k) => rootOf(k.group, k.version, k.kind) !== undefined);

  it('describes some of the kinds', () => {
    expect(described.length).toBeGreaterThan(0);
  });

  it.each(described)('$group/$version $kind: the same merge lists, strategies and merge keys', ({ group, version, kind }) => {
    const schema = strategicMergeSchema(group, version, kind);
    expect(schema).toBeDefined();
    const fromSwagger = swaggerFacts(definitions, rootOf(group, version, kind) as string);
    expect(tableFacts(schema as TypeFacts)).toEqual(fromSwagger);
    expect(Object.keys(fromSwagger)).toContain('metadata.finalizers');
  });
});

it('has every patched kind described by one of the documents', () => {
  const all = LOADED.flatMap(({ definitions }) => Object.values(definitions).flatMap((d) => d['x-kubernetes-group-version-kind'] ?? []));
  for (const { group, kind } of PATCHED_KINDS) {
    expect([group, kind, all.some((g) => g.group === group && g.kind === kind)]).toEqual([group, kind, true]);
  }
});

it('knows no compiled type for a kind it does not serve (such as ThirdPartyResource data)', () => {
  expect(strategicMergeSchema('stable.example.com', 'v1', 'CronTab')).toBeUndefined();
});
