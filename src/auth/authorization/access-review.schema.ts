import { OBJECT_META } from '../../apimachinery/meta/object-meta-schema';
import { goPackage } from '../../apimachinery/schema/go-packages';
import { described, s, StructSchema } from '../../apimachinery/schema/schema';

/** authorization.k8s.io/v1's review types, declared so that their protobuf messages exist (kubectl sends protobuf). */
const AUTHORIZATION_V1 = goPackage('k8s.io.api.authorization.v1', 'authorization.k8s.io/v1');

const RESOURCE_ATTRIBUTES = AUTHORIZATION_V1.struct('ResourceAttributes', {
  namespace: [1, s.string, described('Namespace of the action; empty for cluster-wide resources or every namespace.')],
  verb: [2, s.string, described('Verb of the action, such as get or list.')],
  group: [3, s.string, described('API group of the resource.')],
  version: [4, s.string, described('API version of the resource.')],
  resource: [5, s.string, described('Resource acted on.')],
  subresource: [6, s.string, described('Subresource acted on.')],
  name: [7, s.string, described('Name of the object acted on; empty for every object.')],
});

const NON_RESOURCE_ATTRIBUTES = AUTHORIZATION_V1.struct('NonResourceAttributes', {
  path: [1, s.string, described('URL path of the request.')],
  verb: [2, s.string, described('HTTP verb of the request, in lower case.')],
});

const ACCESS_STATUS = AUTHORIZATION_V1.struct('SubjectAccessReviewStatus', {
  allowed: [1, s.boolean, described('Whether the action is allowed.')],
  denied: [4, s.boolean, described('Whether the action is explicitly denied.')],
  reason: [2, s.string, described('Why the action is allowed or denied.')],
  evaluationError: [3, s.string, described('Error met while checking, if any.')],
});

const review = (name: string, spec: StructSchema, status: StructSchema) =>
  AUTHORIZATION_V1.struct(name, {
    metadata: [1, OBJECT_META, described('Standard object metadata.')],
    spec: [2, spec, described('The question asked.')],
    status: [3, status, described('The answer of the server.')],
  });

const SUBJECT_ACCESS_REVIEW_SPEC = AUTHORIZATION_V1.struct('SubjectAccessReviewSpec', {
  resourceAttributes: [1, RESOURCE_ATTRIBUTES, described('The action on a resource to check.')],
  nonResourceAttributes: [2, NON_RESOURCE_ATTRIBUTES, described('The request to a non-resource URL to check.')],
  user: [3, s.string, described('User to check for.')],
  groups: [4, s.stringList, described('Groups of that user.')],
  uid: [6, s.string, described('UID of that user.')],
});

review('SubjectAccessReview', SUBJECT_ACCESS_REVIEW_SPEC, ACCESS_STATUS);
review('LocalSubjectAccessReview', SUBJECT_ACCESS_REVIEW_SPEC, ACCESS_STATUS);
const SELF_SUBJECT_ACCESS_REVIEW_SPEC = AUTHORIZATION_V1.struct('SelfSubjectAccessReviewSpec', {
  resourceAttributes: [1, RESOURCE_ATTRIBUTES, described('The action on a resource to check.')],
  nonResourceAttributes: [2, NON_RESOURCE_ATTRIBUTES, described('The request to a non-resource URL to check.')],
});

review('SelfSubjectAccessReview', SELF_SUBJECT_ACCESS_REVIEW_SPEC, ACCESS_STATUS);

const SELF_SUBJECT_RULES_REVIEW_SPEC = AUTHORIZATION_V1.struct('SelfSubjectRulesReviewSpec', {
  namespace: [1, s.string, described('Namespace whose rules are listed.')],
});

const RESOURCE_RULE = AUTHORIZATION_V1.struct('ResourceRule', {
  verbs: [1, s.stringList, described('Verbs allowed; * allows every verb.')],
  apiGroups: [2, s.stringList, described('API groups of the resources.')],
  resources: [3, s.stringList, described('Resources covered; * covers every resource.')],
  resourceNames: [4, s.stringList, described('Names of the objects the rule is limited to; all when empty.')],
});

const NON_RESOURCE_RULE = AUTHORIZATION_V1.struct('NonResourceRule', {
  verbs: [1, s.stringList, described('Verbs allowed; * allows every verb.')],
  nonResourceURLs: [2, s.stringList, described('URL paths covered; a trailing * covers a prefix.')],
});

const SUBJECT_RULES_REVIEW_STATUS = AUTHORIZATION_V1.struct('SubjectRulesReviewStatus', {
  resourceRules: [1, s.list(RESOURCE_RULE), described('What the user may do with resources.')],
  nonResourceRules: [2, s.list(NON_RESOURCE_RULE), described('What the user may do with non-resource URLs.')],
  incomplete: [3, s.boolean, described('Whether rules may be missing, because an authorizer cannot list its own.')],
  evaluationError: [4, s.string, described('Error met while listing the rules, if any.')],
});

review('SelfSubjectRulesReview', SELF_SUBJECT_RULES_REVIEW_SPEC, SUBJECT_RULES_REVIEW_STATUS);
