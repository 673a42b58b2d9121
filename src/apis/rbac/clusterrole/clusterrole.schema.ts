import { KindObject, resourceKind } from '../../../apimachinery/meta/object-meta-schema';
import { GoPackage } from '../../../apimachinery/schema/go-packages';
import { LABEL_SELECTOR } from '../../../apimachinery/selectors/label-selector-object';
import { alwaysWritten, described, s } from '../../../apimachinery/schema/schema';
import { PolicyRuleSchema } from '../policy/policy-rule.schema';

const aggregationRuleType = (pkg: GoPackage) =>
  pkg.struct('AggregationRule', { clusterRoleSelectors: [1, s.list(LABEL_SELECTOR), described('Labels of the cluster roles whose rules are gathered.')] });

/** ClusterRole: rules for every namespace and for non-resource URLs, or the rules of the cluster roles it aggregates. */
export const clusterRoleType = (pkg: GoPackage, policyRule: PolicyRuleSchema) =>
  resourceKind(pkg, 'ClusterRole', {
    rules: [2, s.list(policyRule), alwaysWritten, described('Permissions the cluster role grants.')],
    aggregationRule: [3, aggregationRuleType(pkg), described('Selects the cluster roles whose rules this one takes in place of its own.')],
  });

export type ClusterRole = KindObject<ReturnType<typeof clusterRoleType>>;
