import { OBJECT_META } from '../../apimachinery/meta/object-meta-schema';
import { goPackage } from '../../apimachinery/schema/go-packages';
import { s, StructSchema } from '../../apimachinery/schema/schema';

/** authorization.k8s.io/v1's review types, declared so that their protobuf messages exist (kubectl sends protobuf). */
const AUTHORIZATION_V1 = goPackage('k8s.io.api.authorization.v1', 'authorization.k8s.io/v1');

const RESOURCE_ATTRIBUTES = AUTHORIZATION_V1.struct('ResourceAttributes', {
  namespace: [1, s.string],
  verb: [2, s.string],
  group: [3, s.string],
  version: [4, s.string],
  resource: [5, s.string],
  subresource: [6, s.string],
  name: [7, s.string],
});

const NON_RESOURCE_ATTRIBUTES = AUTHORIZATION_V1.struct('NonResourceAttributes', {
  path: [1, s.string],
  verb: [2, s.string],
});

const ACCESS_STATUS = AUTHORIZATION_V1.struct('SubjectAccessReviewStatus', {
  allowed: [1, s.boolean],
  denied: [4, s.boolean],
  reason: [2, s.string],
  evaluationError: [3, s.string],
});

const review = (name: string, spec: StructSchema, status: StructSchema) =>
  AUTHORIZATION_V1.struct(name, { metadata: [1, OBJECT_META], spec: [2, spec], status: [3, status] });

const SUBJECT_ACCESS_REVIEW_SPEC = AUTHORIZATION_V1.struct('SubjectAccessReviewSpec', {
  resourceAttributes: [1, RESOURCE_ATTRIBUTES],
  nonResourceAttributes: [2, NON_RESOURCE_ATTRIBUTES],
  user: [3, s.string],
  groups: [4, s.stringList],
  uid: [6, s.string],
});

review('SubjectAccessReview', SUBJECT_ACCESS_REVIEW_SPEC, ACCESS_STATUS);
review('LocalSubjectAccessReview', SUBJECT_ACCESS_REVIEW_SPEC, ACCESS_STATUS);
review(
  'SelfSubjectAccessReview',
  AUTHORIZATION_V1.struct('SelfSubjectAccessReviewSpec', { resourceAttributes: [1, RESOURCE_ATTRIBUTES], nonResourceAttributes: [2, NON_RESOURCE_ATTRIBUTES] }),
  ACCESS_STATUS,
);
review(
  'SelfSubjectRulesReview',
  AUTHORIZATION_V1.struct('SelfSubjectRulesReviewSpec', { namespace: [1, s.string] }),
  AUTHORIZATION_V1.struct('SubjectRulesReviewStatus', {
    resourceRules: [
      1,
      s.list(
        AUTHORIZATION_V1.struct('ResourceRule', { verbs: [1, s.stringList], apiGroups: [2, s.stringList], resources: [3, s.stringList], resourceNames: [4, s.stringList] }),
      ),
    ],
    nonResourceRules: [2, s.list(AUTHORIZATION_V1.struct('NonResourceRule', { verbs: [1, s.stringList], nonResourceURLs: [2, s.stringList] }))],
    incomplete: [3, s.boolean],
    evaluationError: [4, s.string],
  }),
);
