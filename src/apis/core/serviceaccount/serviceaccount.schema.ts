import { KindObject, resourceKind } from '../../../apimachinery/meta/object-meta-schema';
import { atomic, described, mergedBy, pointer, s } from '../../../apimachinery/schema/schema';
import { CORE_V1 } from '../../workloads/pod-template/core-v1';
import { LOCAL_OBJECT_REFERENCE, OBJECT_REFERENCE } from '../../workloads/pod-template/references.schema';

/** ServiceAccount (core v1): an identity for processes, which asks for its tokens through `serviceaccounts/{name}/token`. */
export const SERVICE_ACCOUNT = resourceKind(CORE_V1, 'ServiceAccount', {
  secrets: [2, s.list(OBJECT_REFERENCE), mergedBy('name'), described('Secrets in the same namespace that pods running as this account may use.')],
  imagePullSecrets: [3, s.list(LOCAL_OBJECT_REFERENCE), atomic, described('Secrets in the same namespace used to pull the images of pods running as this account.')],
  automountServiceAccountToken: [4, s.boolean, pointer, described('Whether pods running as this account get an API token mounted.')],
});

export type ServiceAccount = KindObject<typeof SERVICE_ACCOUNT>;
