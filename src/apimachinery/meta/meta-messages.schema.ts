import { goPackage } from '../schema/go-packages';
import { required, s } from '../schema/schema';

/** The package of the meta/v1 types every group shares: metadata, Status, options, watch events, discovery. */
export const META_V1 = goPackage('k8s.io.apimachinery.pkg.apis.meta.v1');

export const LIST_META = META_V1.struct('ListMeta', {
  selfLink: [1, s.string],
  resourceVersion: [2, s.string],
});

const STATUS_CAUSE = META_V1.struct('StatusCause', {
  reason: [1, s.string],
  message: [2, s.string],
  field: [3, s.string],
});

const STATUS_DETAILS = META_V1.struct('StatusDetails', {
  name: [1, s.string],
  group: [2, s.string],
  kind: [3, s.string],
  uid: [6, s.string],
  causes: [4, s.list(STATUS_CAUSE)],
  retryAfterSeconds: [5, s.int32],
});

export const STATUS = META_V1.struct('Status', {
  metadata: [1, LIST_META],
  status: [2, s.string],
  message: [3, s.string],
  reason: [4, s.string],
  details: [5, STATUS_DETAILS],
  code: [6, s.int32],
});

const PRECONDITIONS = META_V1.struct('Preconditions', {
  uid: [1, s.string],
});

export const DELETE_OPTIONS = META_V1.struct('DeleteOptions', {
  gracePeriodSeconds: [1, s.int64],
  preconditions: [2, PRECONDITIONS],
  orphanDependents: [3, s.boolean],
  propagationPolicy: [4, s.string],
});

export const WATCH_EVENT = META_V1.struct('WatchEvent', {
  type: [1, s.string, required],
  object: [2, s.any, required],
});

const SERVER_ADDRESS_BY_CLIENT_CIDR = META_V1.struct('ServerAddressByClientCIDR', {
  clientCIDR: [1, s.string, required],
  serverAddress: [2, s.string, required],
});

export const API_VERSIONS = META_V1.struct('APIVersions', {
  versions: [1, s.stringList, required],
  serverAddressByClientCIDRs: [2, s.list(SERVER_ADDRESS_BY_CLIENT_CIDR), required],
});

const GROUP_VERSION_FOR_DISCOVERY = META_V1.struct('GroupVersionForDiscovery', {
  groupVersion: [1, s.string, required],
  version: [2, s.string, required],
});

export const API_GROUP = META_V1.struct('APIGroup', {
  name: [1, s.string, required],
  versions: [2, s.list(GROUP_VERSION_FOR_DISCOVERY), required],
  preferredVersion: [3, GROUP_VERSION_FOR_DISCOVERY],
  serverAddressByClientCIDRs: [4, s.list(SERVER_ADDRESS_BY_CLIENT_CIDR), required],
});

export const API_GROUP_LIST = META_V1.struct('APIGroupList', {
  groups: [1, s.list(API_GROUP), required],
});

const VERBS = META_V1.struct('Verbs', {
  items: [1, s.stringList],
});

const API_RESOURCE = META_V1.struct('APIResource', {
  name: [1, s.string, required],
  singularName: [6, s.string, required],
  namespaced: [2, s.boolean, required],
  group: [8, s.string],
  version: [9, s.string],
  kind: [3, s.string, required],
  verbs: [4, VERBS, required],
  shortNames: [5, s.stringList],
  categories: [7, s.stringList],
});

export const API_RESOURCE_LIST = META_V1.struct('APIResourceList', {
  groupVersion: [1, s.string, required],
  resources: [2, s.list(API_RESOURCE), required],
});
