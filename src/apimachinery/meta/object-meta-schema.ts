import { s } from '../schema/schema';

/** ObjectMeta as the Go type declares it, in its field order. */
export const OBJECT_META_SCHEMA = s.struct('ObjectMeta', {
  name: s.string,
  generateName: s.string,
  namespace: s.string,
  selfLink: s.string,
  uid: s.string,
  resourceVersion: s.string,
  generation: s.int64,
  creationTimestamp: s.time,
  deletionTimestamp: s.time,
  deletionGracePeriodSeconds: s.int64,
  labels: s.stringMap,
  annotations: s.stringMap,
  ownerReferences: s.list(
    s.struct('OwnerReference', {
      apiVersion: s.string,
      kind: s.string,
      name: s.string,
      uid: s.string,
      controller: s.boolean,
      blockOwnerDeletion: s.boolean,
    }),
  ),
  initializers: s.struct('Initializers', { pending: s.list(s.struct('Initializer', { name: s.string })), result: s.any }),
  finalizers: s.stringList,
  clusterName: s.string,
});
