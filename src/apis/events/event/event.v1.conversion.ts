import { KubeObject } from '../../../apimachinery/meta/kube-object';
import { omitEmpty } from '../../../apimachinery/schema/omit-empty';
import { StructSchema } from '../../../apimachinery/schema/schema';
import { VersionConversion } from '../../../registry/kind-definition';
import { EVENT } from '../../core/event/event.schema';
import { EVENTS_V1_EVENT } from './event.v1.schema';
import { copyJson } from '../../../apimachinery/meta/json-value';

/** The events.k8s.io/v1 fields that core/v1 names otherwise (upstream's Convert_v1_Event_To_core_Event); the rest match. */
const CORE_NAMES: Readonly<Record<string, string>> = {
  regarding: 'involvedObject',
  note: 'message',
  deprecatedSource: 'source',
  deprecatedFirstTimestamp: 'firstTimestamp',
  deprecatedLastTimestamp: 'lastTimestamp',
  deprecatedCount: 'count',
  reportingController: 'reportingComponent',
};

const V1_NAMES: Readonly<Record<string, string>> = Object.fromEntries(Object.entries(CORE_NAMES).map(([v1, core]) => [core, v1]));

/**
 * The object with its members renamed, in the order of the target shape (members it does not declare last), and
 * the target's apiVersion where it names one.
 */
function renamed(object: KubeObject, names: Readonly<Record<string, string>>, shape: StructSchema, apiVersion: string): KubeObject {
  const members: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(object)) members[names[key] ?? key] = value;
  if (members.apiVersion !== undefined) members.apiVersion = apiVersion;
  const order = ['kind', 'apiVersion', ...Object.keys(shape.jsonFields)];
  const out: Record<string, unknown> = {};
  for (const key of order) if (key in members) out[key] = members[key];
  for (const key in members) if (!(key in out)) out[key] = members[key];
  return out as KubeObject;
}

/** events.k8s.io/v1 Events, stored as core/v1 Events: a renaming both ways, so nothing is lost either way. */
export const EVENTS_V1_CONVERSION: VersionConversion = {
  toStored: (object) => renamed(object, CORE_NAMES, EVENT, 'v1'),
  // core/v1 always writes reportingComponent and reportingInstance; events.k8s.io/v1 leaves them out when empty
  fromStored: (object) => omitEmpty(EVENTS_V1_EVENT, renamed(copyJson(object), V1_NAMES, EVENTS_V1_EVENT, 'events.k8s.io/v1')),
  storedShape: EVENT,
};
