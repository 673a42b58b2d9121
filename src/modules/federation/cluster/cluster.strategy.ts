import { FieldError, fieldErrors } from '../../../apimachinery/errors/field-error';
import { KubeObject } from '../../../apimachinery/meta/kube-object';
import { defineStrategy } from '../../../registry/kind-definition';
import { s } from '../../../apimachinery/schema/schema';
import { nameRules } from '../../../apimachinery/validation/names';

interface Cluster extends KubeObject {
  spec?: { serverAddressByClientCIDRs?: unknown[] };
}

const CLUSTER_FIELDS = {
  spec: s.struct('ClusterSpec', {
    serverAddressByClientCIDRs: s.list(s.struct('ServerAddressByClientCIDR', { clientCIDR: s.string, serverAddress: s.string })),
    secretRef: s.struct('LocalObjectReference', { name: s.string }),
  }),
  status: s.struct('ClusterStatus', {
    conditions: s.list(
      s.struct('ClusterCondition', {
        type: s.string,
        status: s.string,
        lastProbeTime: s.time,
        lastTransitionTime: s.time,
        reason: s.string,
        message: s.string,
      }),
    ),
    zones: s.stringList,
    region: s.string,
  }),
};

/** A new cluster needs an address; updates are not checked beyond metadata (reference §12.9). */
function validateCluster(cluster: Cluster): FieldError[] {
  return cluster.spec?.serverAddressByClientCIDRs?.length ? [] : [fieldErrors.required('spec.serverAddressByClientCIDRs')];
}

/** The federation Cluster: its status is replaced only through `/status`, and DELETE answers with the object. */
export const CLUSTER_STRATEGY = defineStrategy({
  nameRule: nameRules.dns1035Label,
  fields: CLUSTER_FIELDS,
  status: { empty: {}, keepsLabels: false, validate: () => [] },
  generation: 'client',
  deleteReturnsObject: true,
  validate: validateCluster,
});
