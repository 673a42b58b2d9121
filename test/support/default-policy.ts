/**
 * SQL conditions that leave out the default RBAC policy, which the server writes at start (objects labelled
 * `kubernetes.io/bootstrapping: rbac-defaults`): for tests that check what their own requests stored.
 */
const LABEL = `'{metadata,labels,kubernetes.io/bootstrapping}'`;
export const NOT_DEFAULT_POLICY = `body #>> ${LABEL} IS DISTINCT FROM 'rbac-defaults'`;
/** the same for rows of change_log */
export const NOT_DEFAULT_POLICY_CHANGE = `object #>> ${LABEL} IS DISTINCT FROM 'rbac-defaults'`;
