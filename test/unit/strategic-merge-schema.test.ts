import { TypeFacts, typeFacts } from '../../src/apimachinery/patch/strategic-merge-schema';
import { servedType } from '../../src/apimachinery/schema/go-packages';
import EXPECTED from '../fixtures/patch-strategies-1.7.json';
import { KINDS } from '../support/kinds';
import { kindShape } from '../support/served-types';

/**
 * The fixture holds, for each patched type of the 1.7 OpenAPI documents, every list field with a patch strategy below
 * it, by dotted path (a `*` stands for any map key), as `<strategy> <merge key>` (`(primitives)` for lists of
 * primitives). It is data only, taken once from those documents, so the repository needs nothing beside it.
 */
type Facts = Record<string, string>;
const FIXTURE = EXPECTED as Record<string, Facts>;

const describeFact = (strategy: string, mergeKey?: string) => `${strategy} ${mergeKey ?? '(primitives)'}`;

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

it('has every patched kind in the fixture, and no other', () => {
  expect(Object.keys(FIXTURE).sort()).toEqual(PATCHED_KINDS.map((k) => `${k.group}/${k.version}/${k.kind}`).sort());
});

it.each(PATCHED_KINDS)('$group/$version $kind: the same merge lists, strategies and merge keys as 1.7', ({ group, version, kind }) => {
  const schema = typeFacts(kindShape(group ? `${group}/${version}` : version, kind));
  const expected = FIXTURE[`${group}/${version}/${kind}`];
  expect(tableFacts(schema)).toEqual(expected);
  expect(Object.keys(expected)).toContain('metadata.finalizers');
});

it('knows no declared type for a kind it does not serve (such as ThirdPartyResource data)', () => {
  expect(servedType('stable.example.com/v1', 'CronTab')).toBeUndefined();
});
