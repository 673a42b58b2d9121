import { KindObject, resourceKind } from '../../../apimachinery/meta/object-meta-schema';
import { GoPackage } from '../../../apimachinery/schema/go-packages';
import { LABEL_SELECTOR } from '../../../apimachinery/selectors/label-selector-object';
import { alwaysWritten, s } from '../../../apimachinery/schema/schema';
import { PolicyRuleSchema } from '../policy/policy-rule.schema';

/** ClusterRole: rules for every namespace and for non-resource URLs, or the rules of the cluster roles it aggregates. */
export const clusterRoleType = (pkg: GoPackage, policyRule: PolicyRuleSchema) =>
  resourceKind(pkg, 'ClusterRole', {
    rules: [2, s.list(policyRule), alwaysWritten],
    aggregationRule: [3, pkg.struct('AggregationRule', { clusterRoleSelectors: [1, s.list(LABEL_SELECTOR)] })],
  });

export type ClusterRole = KindObject<ReturnType<typeof clusterRoleType>>;
