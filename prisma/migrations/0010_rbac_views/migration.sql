-- Views of the RBAC objects (rbac.authorization.k8s.io): who is given which role, and what each role allows.

CREATE VIEW kube.roles AS
SELECT namespace, name,
       COALESCE(jsonb_array_length(body -> 'rules'), 0)              AS rule_count,
       body -> 'rules'                                               AS rules,
       labels, owners, finalizers, deletion_requested, generation, created, updated, resource_version, uid
FROM kube.objects WHERE api_group = 'rbac.authorization.k8s.io' AND resource = 'roles';

CREATE VIEW kube.clusterroles AS
SELECT name,
       COALESCE(jsonb_array_length(body -> 'rules'), 0)              AS rule_count,
       body -> 'rules'                                               AS rules,
       body #> '{aggregationRule,clusterRoleSelectors}'              AS aggregates,
       labels, owners, finalizers, deletion_requested, generation, created, updated, resource_version, uid
FROM kube.objects WHERE api_group = 'rbac.authorization.k8s.io' AND resource = 'clusterroles';

-- One row per binding; `subjects` as kind:name (kind:namespace/name for service accounts).
CREATE VIEW kube.rolebindings AS
SELECT namespace, name,
       body #>> '{roleRef,kind}'                                     AS role_kind,
       body #>> '{roleRef,name}'                                     AS role_name,
       ARRAY(SELECT (sub ->> 'kind') || ':' || COALESCE((sub ->> 'namespace') || '/', '') || (sub ->> 'name')
             FROM jsonb_array_elements(COALESCE(body -> 'subjects', '[]')) sub) AS subjects,
       labels, owners, finalizers, deletion_requested, generation, created, updated, resource_version, uid
FROM kube.objects WHERE api_group = 'rbac.authorization.k8s.io' AND resource = 'rolebindings';

CREATE VIEW kube.clusterrolebindings AS
SELECT name,
       body #>> '{roleRef,name}'                                     AS role_name,
       ARRAY(SELECT (sub ->> 'kind') || ':' || COALESCE((sub ->> 'namespace') || '/', '') || (sub ->> 'name')
             FROM jsonb_array_elements(COALESCE(body -> 'subjects', '[]')) sub) AS subjects,
       labels, owners, finalizers, deletion_requested, generation, created, updated, resource_version, uid
FROM kube.objects WHERE api_group = 'rbac.authorization.k8s.io' AND resource = 'clusterrolebindings';
