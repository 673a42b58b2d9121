import { KubeObject } from '../../apimachinery/meta/kube-object';
import { VersionConversion } from '../../registry/kind-definition';

/** The object with another apiVersion, in the same place among its members; one without an apiVersion keeps none. */
const withApiVersion = (object: KubeObject, apiVersion: string): KubeObject =>
  object.apiVersion === undefined ? object : { ...object, apiVersion };

/**
 * A served version of a definition whose conversion strategy is None (the apiextensions apiserver's nopConverter):
 * objects are stored with the storage version's apiVersion and read in any version with only the apiVersion
 * rewritten, whichever version they were stored in.
 */
export const noneConversion = (served: string, storage: string): VersionConversion => ({
  toStored: (object) => withApiVersion(object, storage),
  fromStored: (object) => withApiVersion(object, served),
});
