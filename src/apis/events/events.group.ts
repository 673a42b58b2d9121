import { goPackage } from '../../apimachinery/schema/go-packages';

export const EVENTS_V1 = { group: 'events.k8s.io', version: 'v1', legacyDiscovery: false };

/** The protobuf package of its types. */
export const EVENTS_V1_TYPES = goPackage('k8s.io.api.events.v1', 'events.k8s.io/v1');
