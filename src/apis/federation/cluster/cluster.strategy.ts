import { FieldError, fieldErrors } from '../../../apimachinery/errors/field-error';
import { defineStrategy } from '../../../registry/kind-definition';
import { CLUSTER, Cluster } from './cluster.schema';
import { nameRules } from '../../../apimachinery/validation/names';

/** A new cluster needs an address; updates are not checked beyond metadata. */
function validateCluster(cluster: Cluster): FieldError[] {
  return cluster.spec?.serverAddressByClientCIDRs?.length ? [] : [fieldErrors.required('spec.serverAddressByClientCIDRs')];
}

/** The federation Cluster: its status is replaced only through `/status`, and DELETE answers with the object. */
export const CLUSTER_STRATEGY = defineStrategy({
  nameRule: nameRules.dns1035Label,
  shape: CLUSTER,
  status: { empty: {}, keepsLabels: false, validate: () => [] },
  generation: 'client',
  deleteReturnsObject: true,
  validate: validateCluster,
});
