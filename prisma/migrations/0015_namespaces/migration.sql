-- core/v1 Namespaces are objects from now on. A database written before holds objects in namespaces that nobody
-- created: each namespace in use gets its Namespace object, Active and held by the `kubernetes` finalizer, as the
-- server makes a new one, so that the NamespaceLifecycle admission lets writes into it go on.
INSERT INTO objects (api_group, resource, body)
SELECT '', 'namespaces', jsonb_build_object(
           'metadata', jsonb_build_object(
               'name', used.namespace,
               'uid', gen_random_uuid()::text,
               'creationTimestamp', to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"'),
               'labels', jsonb_build_object('kubernetes.io/metadata.name', used.namespace)),
           'spec', jsonb_build_object('finalizers', jsonb_build_array('kubernetes')),
           'status', jsonb_build_object('phase', 'Active'))
FROM (SELECT DISTINCT namespace FROM objects WHERE namespace <> '') used
ON CONFLICT DO NOTHING;

-- One row per namespace: its phase, and the conditions of its deletion as type=status (True ones are the problems).
CREATE VIEW kube.namespaces AS
SELECT name,
       body #>> '{status,phase}'                                     AS phase,
       kube.text_array(body #> '{spec,finalizers}')                  AS spec_finalizers,
       ARRAY(SELECT (c ->> 'type') || '=' || (c ->> 'status')
             FROM jsonb_array_elements(COALESCE(body #> '{status,conditions}', '[]')) c) AS conditions,
       labels, owners, finalizers, deletion_requested, generation, created, updated, resource_version, uid
FROM kube.objects WHERE api_group = '' AND resource = 'namespaces';
