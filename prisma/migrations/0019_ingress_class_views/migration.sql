-- A view of networking.k8s.io/v1 IngressClasses, and the class of each Ingress (stored in the extensions/v1beta1 form
-- whichever version wrote it: spec.ingressClassName, or the annotation that came before it).

CREATE VIEW kube.ingressclasses AS
SELECT name,
       body #>> '{spec,controller}'                                   AS controller,
       body #>> '{spec,parameters,apiGroup}'                          AS parameters_group,
       body #>> '{spec,parameters,kind}'                              AS parameters_kind,
       body #>> '{spec,parameters,name}'                              AS parameters_name,
       COALESCE(body #>> '{metadata,annotations,ingressclass.kubernetes.io/is-default-class}', '') = 'true' AS is_default,
       labels, owners, finalizers, deletion_requested, generation, created, updated, resource_version, uid
FROM kube.objects WHERE api_group = 'networking.k8s.io' AND resource = 'ingressclasses';

CREATE OR REPLACE VIEW kube.ingresses AS
SELECT namespace, name,
       kube.text_array(jsonb_path_query_array(body, '$.spec.rules[*].host'))                  AS hosts,
       kube.text_array(jsonb_path_query_array(body, '$.spec.rules[*].http.paths[*].path'))    AS paths,
       kube.text_array(jsonb_path_query_array(body, 'strict $.spec.**.serviceName'))        AS services,
       kube.text_array(jsonb_path_query_array(body, '$.spec.tls[*].hosts[*]'))                AS tls_hosts,
       labels, owners, finalizers, deletion_requested, generation, created, updated, resource_version, uid,
       COALESCE(body #>> '{spec,ingressClassName}', body #>> '{metadata,annotations,kubernetes.io/ingress.class}') AS class
FROM kube.objects WHERE api_group = 'extensions' AND resource = 'ingresses';
