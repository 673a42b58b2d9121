import { KubeObject } from '../apimachinery/meta/kube-object';
import { StructSchema } from '../apimachinery/schema/schema';
import { VersionConversion } from './kind-definition';

const withApiVersion = (object: KubeObject, apiVersion: string): KubeObject =>
  object.apiVersion === undefined ? object : { ...object, apiVersion };

/**
 * The conversion of a version whose fields are those of the stored form (policy/v1beta1 PodSecurityPolicies are
 * extensions/v1beta1's): only the apiVersion differs.
 */
export function sameFieldsConversion(storedShape: StructSchema, storedVersion: string, servedVersion: string): VersionConversion {
  return {
    toStored: (object) => withApiVersion(object, storedVersion),
    fromStored: (object) => withApiVersion(object, servedVersion),
    storedShape,
    keepsStoredText: () => true,
  };
}
