import { goPackage } from '../schema/go-packages';
import { described, required, s } from '../schema/schema';

/** The package of the meta/v1 types every group shares: metadata, Status, options, watch events, discovery. */
export const META_V1 = goPackage('k8s.io.apimachinery.pkg.apis.meta.v1');

export const LIST_META = META_V1.struct('ListMeta', {
  selfLink: [1, s.string, described('URL path of the list, set by the server.')],
  resourceVersion: [2, s.string, described('Version of the store the list was read at; a watch can start from it.')],
});

const STATUS_CAUSE = META_V1.struct('StatusCause', {
  reason: [1, s.string, described('Machine-readable cause of the error.')],
  message: [2, s.string, described('Human-readable explanation of the cause.')],
  field: [3, s.string, described('Path of the field at fault, such as spec.replicas.')],
});

const STATUS_DETAILS = META_V1.struct('StatusDetails', {
  name: [1, s.string, described('Name of the object the error is about.')],
  group: [2, s.string, described('API group of the object the error is about.')],
  kind: [3, s.string, described('Kind of the object the error is about.')],
  uid: [6, s.string, described('UID of the object the error is about.')],
  causes: [4, s.list(STATUS_CAUSE), described('The single causes, such as each invalid field.')],
  retryAfterSeconds: [5, s.int32, described('Seconds the client should wait before it tries again.')],
});

export const STATUS = META_V1.struct('Status', {
  metadata: [1, LIST_META, described('List metadata, mostly empty.')],
  status: [2, s.string, described('Outcome of the operation: Success or Failure.')],
  message: [3, s.string, described('Human-readable account of the outcome.')],
  reason: [4, s.string, described('Machine-readable reason of a failure, such as NotFound or Conflict.')],
  details: [5, STATUS_DETAILS, described('More about the failure, depending on the reason.')],
  code: [6, s.int32, described('HTTP status code of the answer.')],
});

const PRECONDITIONS = META_V1.struct('Preconditions', {
  uid: [1, s.string, described('UID the object must have for the deletion to go ahead.')],
});

export const DELETE_OPTIONS = META_V1.struct('DeleteOptions', {
  gracePeriodSeconds: [1, s.int64, described('Seconds the object may take to terminate; 0 deletes it at once.')],
  preconditions: [2, PRECONDITIONS, described('Conditions the object must meet for the deletion to go ahead.')],
  orphanDependents: [3, s.boolean, described('Whether dependents are left in place rather than deleted (propagationPolicy replaces it).')],
  propagationPolicy: [4, s.string, described('What happens to dependents: Orphan, Background or Foreground.')],
});

export const WATCH_EVENT = META_V1.struct('WatchEvent', {
  type: [1, s.string, required, described('Kind of change: ADDED, MODIFIED, DELETED, BOOKMARK or ERROR.')],
  object: [2, s.any, required, described('The object as the change left it, or a Status for an error.')],
});

const SERVER_ADDRESS_BY_CLIENT_CIDR = META_V1.struct('ServerAddressByClientCIDR', {
  clientCIDR: [1, s.string, required, described('Network of the clients that use this address.')],
  serverAddress: [2, s.string, required, described('Address (host or host:port) at which those clients reach the server.')],
});

export const API_VERSIONS = META_V1.struct('APIVersions', {
  versions: [1, s.stringList, required, described('API versions served under /api.')],
  serverAddressByClientCIDRs: [2, s.list(SERVER_ADDRESS_BY_CLIENT_CIDR), required, described('Addresses of the server, by network of the clients.')],
});

const GROUP_VERSION_FOR_DISCOVERY = META_V1.struct('GroupVersionForDiscovery', {
  groupVersion: [1, s.string, required, described('Group and version, as group/version.')],
  version: [2, s.string, required, described('The version alone.')],
});

export const API_GROUP = META_V1.struct('APIGroup', {
  name: [1, s.string, required, described('Name of the group.')],
  versions: [2, s.list(GROUP_VERSION_FOR_DISCOVERY), required, described('Versions of the group that are served.')],
  preferredVersion: [3, GROUP_VERSION_FOR_DISCOVERY, described('Version clients should use when they have no preference.')],
  serverAddressByClientCIDRs: [4, s.list(SERVER_ADDRESS_BY_CLIENT_CIDR), required, described('Addresses of the server, by network of the clients.')],
});

export const API_GROUP_LIST = META_V1.struct('APIGroupList', {
  groups: [1, s.list(API_GROUP), required, described('Groups the server serves.')],
});

const VERBS = META_V1.struct('Verbs', {
  items: [1, s.stringList, described('Names of the verbs.')],
});

const API_RESOURCE = META_V1.struct('APIResource', {
  name: [1, s.string, required, described('Plural name of the resource, as paths have it.')],
  singularName: [6, s.string, required, described('Singular name of the resource.')],
  namespaced: [2, s.boolean, required, described('Whether objects of the resource live in namespaces.')],
  group: [8, s.string, described('Group of the resource, where it differs from the listing group version.')],
  version: [9, s.string, described('Version of the resource, where it differs from the listing group version.')],
  kind: [3, s.string, required, described('Kind of the objects.')],
  verbs: [4, VERBS, required, described('Verbs the resource supports, such as get, list and watch.')],
  shortNames: [5, s.stringList, described('Abbreviations clients accept in place of the name.')],
  categories: [7, s.stringList, described('Groups of resources this one belongs to, such as all.')],
});

export const API_RESOURCE_LIST = META_V1.struct('APIResourceList', {
  groupVersion: [1, s.string, required, described('Group version the resources belong to.')],
  resources: [2, s.list(API_RESOURCE), required, described('Resources served in the group version.')],
});
