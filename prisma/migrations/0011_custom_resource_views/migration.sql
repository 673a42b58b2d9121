-- Views of CustomResourceDefinitions and of the objects they define (which are rows of `objects` like any other).

-- Each definition: what it serves and whether it is served (Established) or being deleted (Terminating).
CREATE VIEW kube.customresourcedefinitions AS
SELECT name,
       body #>> '{spec,group}'                                         AS api_group,
       body #>> '{spec,names,plural}'                                  AS plural,
       body #>> '{spec,names,kind}'                                    AS kind,
       body #>> '{spec,scope}'                                         AS scope,
       kube.text_array(jsonb_path_query_array(body, '$.spec.versions[*] ? (@.served == true).name')) AS served_versions,
       jsonb_path_query_first(body, '$.spec.versions[*] ? (@.storage == true).name') #>> '{}'     AS storage_version,
       jsonb_path_query_first(body, '$.status.conditions[*] ? (@.type == "Established").status') #>> '{}' = 'True' AS established,
       jsonb_path_query_first(body, '$.status.conditions[*] ? (@.type == "Terminating").status') #>> '{}' = 'True' AS terminating,
       labels, owners, finalizers, deletion_requested, generation, created, updated, resource_version, uid
FROM kube.objects WHERE api_group = 'apiextensions.k8s.io' AND resource = 'customresourcedefinitions';

-- The objects of every CustomResourceDefinition, with the kind and the definition they belong to.
CREATE VIEW kube.custom_objects AS
SELECT o.api_group, o.resource, d.kind, d.name AS definition, o.namespace, o.name,
       o.labels, o.owners, o.finalizers, o.deletion_requested, o.generation, o.created, o.updated, o.resource_version, o.uid, o.body
FROM kube.objects o
JOIN kube.customresourcedefinitions d ON o.api_group = d.api_group AND o.resource = d.plural;
