-- Audit events (audit.k8s.io/v1 Event, as the server writes them with --audit-policy-file), partitioned by the day
-- of their stage timestamp (UTC). The server creates each day's partition before it first writes into it; old days
-- are removed by dropping their partition (see docs/operations.md). Only `stage_at` and `event` are written; the
-- other columns are generated from `event` for queries and indexes.

CREATE TABLE audit_events (
    stage_at          timestamptz NOT NULL,
    event             jsonb       NOT NULL,
    audit_id          text GENERATED ALWAYS AS (event ->> 'auditID') STORED,
    stage             text GENERATED ALWAYS AS (event ->> 'stage') STORED,
    level             text GENERATED ALWAYS AS (event ->> 'level') STORED,
    verb              text GENERATED ALWAYS AS (event ->> 'verb') STORED,
    username          text GENERATED ALWAYS AS (event #>> '{user,username}') STORED,
    impersonated_user text GENERATED ALWAYS AS (event #>> '{impersonatedUser,username}') STORED,
    api_group         text GENERATED ALWAYS AS (event #>> '{objectRef,apiGroup}') STORED,
    resource          text GENERATED ALWAYS AS (event #>> '{objectRef,resource}') STORED,
    subresource       text GENERATED ALWAYS AS (event #>> '{objectRef,subresource}') STORED,
    namespace         text GENERATED ALWAYS AS (event #>> '{objectRef,namespace}') STORED,
    name              text GENERATED ALWAYS AS (event #>> '{objectRef,name}') STORED,
    code              integer GENERATED ALWAYS AS ((event #>> '{responseStatus,code}')::integer) STORED
) PARTITION BY RANGE (stage_at);

CREATE INDEX audit_events_object_idx ON audit_events (resource, namespace, name, stage_at);
CREATE INDEX audit_events_user_idx ON audit_events (username, stage_at);

-- One row per audit event with the columns people look for.
CREATE VIEW kube.audit AS
SELECT stage_at                                   AS at,
       stage,
       level,
       verb,
       username,
       kube.text_array(event #> '{user,groups}')  AS groups,
       impersonated_user,
       api_group,
       resource,
       subresource,
       namespace,
       name,
       code,
       event ->> 'requestURI'                     AS uri,
       kube.text_array(event -> 'sourceIPs')      AS source_ips,
       event ->> 'userAgent'                      AS user_agent,
       audit_id,
       event
FROM audit_events;
