-- Views for operators, in their own schema: one per kind with the columns people look for, the change log with what
-- each change touched, and the state of the change log. They only read `objects` and `change_log`; repairs are
-- still made by UPDATE on `objects` (see docs/operations.md).

CREATE SCHEMA kube;

-- The strings of a JSON array (an empty array for NULL), e.g. the images of every container.
CREATE FUNCTION kube.text_array(jsonb) RETURNS text[]
LANGUAGE sql IMMUTABLE AS $$
    SELECT ARRAY(SELECT jsonb_array_elements_text(COALESCE($1, '[]'::jsonb)))
$$;

-- Every object with the columns every kind has; the per-kind views below add their own.
CREATE VIEW kube.objects AS
SELECT api_group,
       resource,
       namespace,
       name,
       body -> 'metadata' -> 'labels'                                          AS labels,  -- the expression objects_labels_idx indexes
       body #> '{metadata,annotations}'                                        AS annotations,
       ARRAY(SELECT (ref ->> 'kind') || '/' || (ref ->> 'name')
             FROM jsonb_array_elements(COALESCE(body #> '{metadata,ownerReferences}', '[]')) ref) AS owners,
       kube.text_array(body #> '{metadata,finalizers}')                        AS finalizers,
       (body #>> '{metadata,deletionTimestamp}')::timestamptz                  AS deletion_requested,
       (body #>> '{metadata,generation}')::bigint                              AS generation,
       created_at                                                              AS created,
       updated_at                                                              AS updated,
       resource_version,
       uid,
       body
FROM objects;

-- Pod-template kinds: containers' images, desired and observed replicas.
CREATE VIEW kube.deployments AS
SELECT namespace, name,
       (body #>> '{spec,replicas}')::int                 AS replicas,
       (body #>> '{status,updatedReplicas}')::int        AS updated_replicas,
       (body #>> '{status,readyReplicas}')::int          AS ready_replicas,
       (body #>> '{status,availableReplicas}')::int      AS available_replicas,
       kube.text_array(jsonb_path_query_array(body, '$.spec.template.spec.containers[*].image')) AS images,
       body #>> '{spec,strategy,type}'                   AS strategy,
       COALESCE((body #>> '{spec,paused}')::boolean, false) AS paused,
       labels, owners, finalizers, deletion_requested, generation, created, updated, resource_version, uid
FROM kube.objects WHERE api_group = 'extensions' AND resource = 'deployments';

CREATE VIEW kube.replicasets AS
SELECT namespace, name,
       (body #>> '{spec,replicas}')::int                 AS replicas,
       (body #>> '{status,readyReplicas}')::int          AS ready_replicas,
       (body #>> '{status,availableReplicas}')::int      AS available_replicas,
       kube.text_array(jsonb_path_query_array(body, '$.spec.template.spec.containers[*].image')) AS images,
       labels, owners, finalizers, deletion_requested, generation, created, updated, resource_version, uid
FROM kube.objects WHERE api_group = 'extensions' AND resource = 'replicasets';

CREATE VIEW kube.replicationcontrollers AS
SELECT namespace, name,
       (body #>> '{spec,replicas}')::int                 AS replicas,
       (body #>> '{status,readyReplicas}')::int          AS ready_replicas,
       (body #>> '{status,availableReplicas}')::int      AS available_replicas,
       kube.text_array(jsonb_path_query_array(body, '$.spec.template.spec.containers[*].image')) AS images,
       labels, owners, finalizers, deletion_requested, generation, created, updated, resource_version, uid
FROM kube.objects WHERE api_group = '' AND resource = 'replicationcontrollers';

CREATE VIEW kube.daemonsets AS
SELECT namespace, name,
       (body #>> '{status,desiredNumberScheduled}')::int AS desired,
       (body #>> '{status,currentNumberScheduled}')::int AS current,
       (body #>> '{status,numberReady}')::int            AS ready,
       kube.text_array(jsonb_path_query_array(body, '$.spec.template.spec.containers[*].image')) AS images,
       body #>> '{spec,updateStrategy,type}'             AS update_strategy,
       labels, owners, finalizers, deletion_requested, generation, created, updated, resource_version, uid
FROM kube.objects WHERE api_group = 'extensions' AND resource = 'daemonsets';

CREATE VIEW kube.ingresses AS
SELECT namespace, name,
       kube.text_array(jsonb_path_query_array(body, '$.spec.rules[*].host'))                  AS hosts,
       kube.text_array(jsonb_path_query_array(body, '$.spec.rules[*].http.paths[*].path'))    AS paths,
       kube.text_array(jsonb_path_query_array(body, 'strict $.spec.**.serviceName'))        AS services,
       kube.text_array(jsonb_path_query_array(body, '$.spec.tls[*].hosts[*]'))                AS tls_hosts,
       labels, owners, finalizers, deletion_requested, generation, created, updated, resource_version, uid
FROM kube.objects WHERE api_group = 'extensions' AND resource = 'ingresses';

CREATE VIEW kube.networkpolicies AS
SELECT namespace, name,
       body #> '{spec,podSelector}'                                   AS pod_selector,
       COALESCE(jsonb_array_length(body #> '{spec,ingress}'), 0)      AS ingress_rules,
       labels, owners, finalizers, deletion_requested, generation, created, updated, resource_version, uid
FROM kube.objects WHERE api_group = 'extensions' AND resource = 'networkpolicies';

CREATE VIEW kube.podsecuritypolicies AS
SELECT name,
       COALESCE((body #>> '{spec,privileged}')::boolean, false)       AS privileged,
       COALESCE((body #>> '{spec,hostNetwork}')::boolean, false)      AS host_network,
       body #>> '{spec,runAsUser,rule}'                               AS run_as_user,
       body #>> '{spec,seLinux,rule}'                                 AS se_linux,
       kube.text_array(body #> '{spec,volumes}')                      AS volumes,
       labels, owners, finalizers, deletion_requested, generation, created, updated, resource_version, uid
FROM kube.objects WHERE api_group = 'extensions' AND resource = 'podsecuritypolicies';

CREATE VIEW kube.thirdpartyresources AS
SELECT name,
       body ->> 'description'                                         AS description,
       kube.text_array(jsonb_path_query_array(body, '$.versions[*].name')) AS versions,
       labels, owners, finalizers, deletion_requested, generation, created, updated, resource_version, uid
FROM kube.objects WHERE api_group = 'extensions' AND resource = 'thirdpartyresources';

CREATE VIEW kube.clusters AS
SELECT name,
       kube.text_array(jsonb_path_query_array(body, '$.spec.serverAddressByClientCIDRs[*].serverAddress')) AS server_addresses,
       body #>> '{spec,secretRef,name}'                               AS secret,
       jsonb_path_query_first(body, '$.status.conditions[*] ? (@.type == "Ready").status') #>> '{}' AS ready,
       labels, owners, finalizers, deletion_requested, generation, created, updated, resource_version, uid
FROM kube.objects WHERE api_group = 'federation' AND resource = 'clusters';

-- The change log, with what each change touched (for a MODIFIED change: did spec, status, labels or other metadata
-- change). The objects are there too, for the history of one object.
CREATE VIEW kube.changes AS
SELECT resource_version,
       changed_at,
       event_type,
       api_group,
       resource,
       namespace,
       name,
       uid,
       object #> '{metadata,labels}'                                               AS labels,
       event_type = 'MODIFIED' AND object -> 'spec'   IS DISTINCT FROM previous_object -> 'spec'   AS spec_changed,
       event_type = 'MODIFIED' AND object -> 'status' IS DISTINCT FROM previous_object -> 'status' AS status_changed,
       event_type = 'MODIFIED' AND object #> '{metadata,labels}' IS DISTINCT FROM previous_object #> '{metadata,labels}' AS labels_changed,
       event_type = 'MODIFIED' AND object -> 'metadata' IS DISTINCT FROM previous_object -> 'metadata' AS metadata_changed,
       object,
       previous_object
FROM change_log;

-- One row: how much history the change log holds, and how far it has been compacted (a watch from a resourceVersion
-- below compacted_through gets 410 Gone). last_allocated is the sequence's position, which a restore must carry over.
CREATE VIEW kube.change_log_state AS
SELECT (SELECT MAX(resource_version) FROM change_log)          AS newest,
       (SELECT MIN(resource_version) FROM change_log)          AS oldest,
       (SELECT COUNT(*) FROM change_log)                       AS retained_changes,
       (SELECT MIN(changed_at) FROM change_log)                AS oldest_changed_at,
       c.compacted_through,
       c.compacted_at,
       (SELECT last_value FROM resource_version_seq)           AS last_allocated
FROM change_log_compaction c;
