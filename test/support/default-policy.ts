/**
 * SQL conditions that leave out what the server writes at start: the default RBAC policy (objects labelled
 * `kubernetes.io/bootstrapping: rbac-defaults`) and the system namespaces. For tests that check what their own
 * requests stored.
 */
const LABEL = `'{metadata,labels,kubernetes.io/bootstrapping}'`;
const NOT_SYSTEM_NAMESPACE = `NOT (api_group = '' AND resource = 'namespaces' AND name IN ('default', 'kube-system', 'kube-public', 'kube-node-lease'))`;
export const NOT_DEFAULT_POLICY = `body #>> ${LABEL} IS DISTINCT FROM 'rbac-defaults' AND ${NOT_SYSTEM_NAMESPACE}`;
/** the same for rows of change_log */
export const NOT_DEFAULT_POLICY_CHANGE = `object #>> ${LABEL} IS DISTINCT FROM 'rbac-defaults' AND ${NOT_SYSTEM_NAMESPACE}`;
