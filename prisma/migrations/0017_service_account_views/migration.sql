-- A view of the ServiceAccounts (core v1): the secrets they may use and pull images with.

CREATE VIEW kube.serviceaccounts AS
SELECT namespace, name,
       ARRAY(SELECT s ->> 'name' FROM jsonb_array_elements(COALESCE(body -> 'secrets', '[]')) s)          AS secrets,
       ARRAY(SELECT s ->> 'name' FROM jsonb_array_elements(COALESCE(body -> 'imagePullSecrets', '[]')) s) AS image_pull_secrets,
       (body ->> 'automountServiceAccountToken')::boolean                                             AS automount_token,
       labels, owners, finalizers, deletion_requested, generation, created, updated, resource_version, uid
FROM kube.objects WHERE api_group = '' AND resource = 'serviceaccounts';
