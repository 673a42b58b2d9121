import { resourceKind } from '../../../apimachinery/meta/object-meta-schema';
import { GoPackage } from '../../../apimachinery/schema/go-packages';
import { LABEL_SELECTOR } from '../../../apimachinery/selectors/label-selector-object';
import { alwaysWritten, s, StructSchema } from '../../../apimachinery/schema/schema';

/** ClusterRole: rules for every namespace and for non-resource URLs, or the rules of the cluster roles it aggregates. */
export const clusterRoleType = (pkg: GoPackage, policyRule: StructSchema): StructSchema =>
  resourceKind(pkg, 'ClusterRole', {
    rules: [2, s.list(policyRule), alwaysWritten],
    aggregationRule: [3, pkg.struct('AggregationRule', { clusterRoleSelectors: [1, s.list(LABEL_SELECTOR)] })],
  });
