/**
 * SQL conditions that leave out what the server writes by itself: the default RBAC policy (objects labelled
 * `kubernetes.io/bootstrapping: rbac-defaults`), the system namespaces and the controller manager's Leases. For tests
 * that check what their own requests stored.
 */
const LABEL = `'{metadata,labels,kubernetes.io/bootstrapping}'`;
const NOT_SYSTEM_NAMESPACE = `NOT (api_group = '' AND resource = 'namespaces' AND name IN ('default', 'kube-system', 'kube-public', 'kube-node-lease'))`;
/** leaves out the Leases through which instances elect the one that runs each controller, renewed every few seconds */
export const NOT_CONTROLLER_LEASE = `NOT (api_group = 'coordination.k8s.io' AND resource = 'leases' AND namespace = 'kube-system' AND name LIKE 'pgkube-%')`;
export const NOT_DEFAULT_POLICY = `body #>> ${LABEL} IS DISTINCT FROM 'rbac-defaults' AND ${NOT_SYSTEM_NAMESPACE} AND ${NOT_CONTROLLER_LEASE}`;
/** the same for rows of change_log */
export const NOT_DEFAULT_POLICY_CHANGE = `object #>> ${LABEL} IS DISTINCT FROM 'rbac-defaults' AND ${NOT_SYSTEM_NAMESPACE} AND ${NOT_CONTROLLER_LEASE}`;
