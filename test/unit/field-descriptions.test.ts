import { API_GROUP_LIST, API_RESOURCE_LIST, API_VERSIONS, DELETE_OPTIONS, STATUS, WATCH_EVENT } from '../../src/apimachinery/meta/meta-messages.schema';
import { goPackage } from '../../src/apimachinery/schema/go-packages';
import { StructSchema } from '../../src/apimachinery/schema/schema';
import { CUSTOM_RESOURCE_DEFINITIONS, CUSTOM_RESOURCE_DEFINITIONS_V1BETA1 } from '../../src/apis/apiextensions/apiextensions.kinds';
import { CORE_KINDS } from '../../src/apis/core/core.kinds';
import { EXTENSIONS_KINDS } from '../../src/apis/extensions/extensions.kinds';
import { FEDERATION_KINDS } from '../../src/apis/federation/federation.kinds';
import { RBAC_V1_KINDS, RBAC_V1BETA1_KINDS } from '../../src/apis/rbac/rbac.kinds';
import { reachableTypes } from '../../src/apiserver/openapi/json-schema';
import { kindPaths } from '../../src/apiserver/openapi/operations';
// the review types declare themselves when their module loads
import '../../src/auth/authorization/access-review.schema';

// Every field of the built-in types says what it holds: the OpenAPI documents publish it and `kubectl explain` shows it.

const BUILT_IN_KINDS = [
  ...CORE_KINDS,
  ...EXTENSIONS_KINDS,
  ...FEDERATION_KINDS,
  ...RBAC_V1_KINDS,
  ...RBAC_V1BETA1_KINDS,
  CUSTOM_RESOURCE_DEFINITIONS,
  CUSTOM_RESOURCE_DEFINITIONS_V1BETA1,
];

/** The types the OpenAPI documents define: what every path of a built-in kind takes and answers, and all they reach. */
const servedTypes = reachableTypes(
  BUILT_IN_KINDS.flatMap(kindPaths)
    .flatMap((path) => path.operations.flatMap((operation) => [operation.body, operation.response]))
    .filter((type): type is StructSchema => typeof type === 'object'),
);

/**
 * The JSON fields of `types` (an embedded struct's own fields in its place, as the documents have them) that have no
 * description, as `package.Type.field`.
 */
const undescribed = (types: StructSchema[]): string[] =>
  types.flatMap((type) =>
    Object.entries(type.jsonFields)
      .filter(([, field]) => !field.description?.trim())
      .map(([name]) => `${type.package}.${type.name}.${name}`),
  );

describe('field descriptions', () => {
  it('describe every field of every type a built-in kind reaches', () => {
    const names = servedTypes.map((type) => type.name);
    expect(names).toEqual(expect.arrayContaining(['Deployment', 'DeploymentList', 'Scale', 'DeploymentRollback', 'ObjectMeta', 'ListMeta', 'Volume']));
    expect(names).toEqual(expect.arrayContaining(['ClusterRole', 'RoleBinding', 'CustomResourceDefinition', 'Cluster', 'ReplicationController']));
    expect(undescribed(servedTypes)).toEqual([]);
  });

  it('describe the fields of Status, DeleteOptions, watch events, discovery and the authorization reviews', () => {
    const reviews = [...goPackage('k8s.io.api.authorization.v1').types.values()];
    expect(reviews.map((type) => type.name)).toEqual(expect.arrayContaining(['SubjectAccessReview', 'SelfSubjectRulesReview']));
    const roots = [STATUS, DELETE_OPTIONS, WATCH_EVENT, API_VERSIONS, API_GROUP_LIST, API_RESOURCE_LIST, ...reviews];
    expect(undescribed(reachableTypes(roots))).toEqual([]);
  });

  it('are one sentence on one line', () => {
    const descriptions = reachableTypes([...servedTypes, STATUS, DELETE_OPTIONS]).flatMap((type) =>
      Object.values(type.jsonFields).map((field) => field.description ?? ''),
    );
    expect(descriptions.filter((text) => text.includes('\n') || !text.endsWith('.'))).toEqual([]);
  });
});
