-- The cluster controller keeps each federation Cluster's Ready and Offline conditions; an unreachable cluster has
-- Offline=True and no Ready condition (as federation's controller), so the view of clusters shows both statuses.

CREATE OR REPLACE VIEW kube.clusters AS
SELECT name,
       kube.text_array(jsonb_path_query_array(body, '$.spec.serverAddressByClientCIDRs[*].serverAddress')) AS server_addresses,
       body #>> '{spec,secretRef,name}'                               AS secret,
       jsonb_path_query_first(body, '$.status.conditions[*] ? (@.type == "Ready").status') #>> '{}' AS ready,
       labels, owners, finalizers, deletion_requested, generation, created, updated, resource_version, uid,
       jsonb_path_query_first(body, '$.status.conditions[*] ? (@.type == "Offline").status') #>> '{}' AS offline
FROM kube.objects WHERE api_group = 'federation' AND resource = 'clusters';
