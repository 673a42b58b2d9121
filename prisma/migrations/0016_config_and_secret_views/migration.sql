-- Views of core v1 ConfigMaps and Secrets: their names, types and keys, never their values (which the server may
-- store encrypted: see the README, "Secrets and ConfigMaps, encrypted at rest").

CREATE VIEW kube.configmaps AS
SELECT namespace, name,
       ARRAY(SELECT jsonb_object_keys(COALESCE(body -> 'data', '{}')) ORDER BY 1)       AS keys,
       ARRAY(SELECT jsonb_object_keys(COALESCE(body -> 'binaryData', '{}')) ORDER BY 1) AS binary_keys,
       COALESCE((body ->> 'immutable')::boolean, false)                                  AS immutable,
       labels, owners, finalizers, deletion_requested, created, updated, resource_version, uid
FROM kube.objects WHERE api_group = '' AND resource = 'configmaps';

CREATE VIEW kube.secrets AS
SELECT namespace, name,
       body ->> 'type'                                                                   AS type,
       ARRAY(SELECT jsonb_object_keys(COALESCE(body -> 'data', '{}')) ORDER BY 1)       AS keys,
       COALESCE((body ->> 'immutable')::boolean, false)                                  AS immutable,
       labels, owners, finalizers, deletion_requested, created, updated, resource_version, uid
FROM kube.objects WHERE api_group = '' AND resource = 'secrets';
