-- Views of Events (core/v1's stored form, which events.k8s.io/v1 serves too) and of coordination.k8s.io Leases, and the
-- index the expiry of Events reads.

-- Each event: what it is about, why, who reported it, how often, and when it was last written (EVENT_TTL counts from it).
CREATE VIEW kube.events AS
SELECT namespace, name,
       body #>> '{involvedObject,kind}'                                          AS object_kind,
       body #>> '{involvedObject,namespace}'                                     AS object_namespace,
       body #>> '{involvedObject,name}'                                          AS object_name,
       body ->> 'type'                                                           AS type,
       body ->> 'reason'                                                         AS reason,
       body ->> 'message'                                                        AS message,
       COALESCE(NULLIF(body #>> '{source,component}', ''), body ->> 'reportingComponent') AS source,
       COALESCE((body #>> '{series,count}')::int, (body ->> 'count')::int, 1)   AS count,
       (body ->> 'firstTimestamp')::timestamptz                                  AS first_timestamp,
       (body ->> 'lastTimestamp')::timestamptz                                   AS last_timestamp,
       (body ->> 'eventTime')::timestamptz                                       AS event_time,
       labels, owners, finalizers, deletion_requested, generation, created, updated, resource_version, uid
FROM kube.objects WHERE api_group = '' AND resource = 'events';

-- Each lease: its holder, and whether it has expired (its last renewal older than its duration).
CREATE VIEW kube.leases AS
SELECT namespace, name,
       body #>> '{spec,holderIdentity}'                                          AS holder,
       (body #>> '{spec,leaseDurationSeconds}')::int                             AS duration_seconds,
       (body #>> '{spec,acquireTime}')::timestamptz                              AS acquired,
       (body #>> '{spec,renewTime}')::timestamptz                                AS renewed,
       (body #>> '{spec,leaseTransitions}')::int                                 AS transitions,
       (body #>> '{spec,renewTime}')::timestamptz
           + make_interval(secs => (body #>> '{spec,leaseDurationSeconds}')::int) < now() AS expired,
       labels, owners, finalizers, deletion_requested, generation, created, updated, resource_version, uid
FROM kube.objects WHERE api_group = 'coordination.k8s.io' AND resource = 'leases';

-- The compactor deletes the events last written before now - EVENT_TTL (src/storage/changes/change-log-compaction.ts):
-- this index finds them without reading every event.
CREATE INDEX objects_events_updated_idx ON objects (updated_at) WHERE api_group = '' AND resource = 'events';
