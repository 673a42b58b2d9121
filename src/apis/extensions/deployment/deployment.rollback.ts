import { FieldError, fieldErrors } from '../../../apimachinery/errors/field-error';
import { KubeObject } from '../../../apimachinery/meta/kube-object';
import { validateAnnotations } from '../../../apimachinery/meta/object-meta-validation';
import { defineKind } from '../../../registry/define-kind';
import { ApiGroupVersion } from '../../../registry/kind-registry';
import { StructSchema } from '../../../apimachinery/schema/schema';
import { defineStrategy, RollbackBinding } from '../../../registry/kind-definition';
import { TypeOf } from '../../../apimachinery/schema/type-of';
import { Deployment, DEPLOYMENT_ROLLBACK as DEPLOYMENT_ROLLBACK_SHAPE } from './deployment.schema';
import { nameRules } from '../../../apimachinery/validation/names';
import { nonNegative } from '../../../apimachinery/validation/numbers';
import { EXTENSIONS } from '../extensions.group';

/** The request as a rollback binding receives it: decoded as any object is, its members those of its shape. */
type DeploymentRollback = KubeObject & TypeOf<typeof DEPLOYMENT_ROLLBACK_SHAPE>;

/**
 * The rollback of the Deployments of a group version that has one (extensions/v1beta1, apps/v1beta1): its request, a
 * DeploymentRollback of that version, records the wanted revision and the annotations on the Deployment; its
 * controller does the rest.
 */
export function deploymentRollback(gv: Pick<ApiGroupVersion, 'group' | 'version'>, shape: StructSchema): RollbackBinding {
  // DeploymentRollback, the body of `deployments/{name}/rollback`: no metadata, the deployment named in `name`
  const requestKind = defineKind(gv, {
    resource: 'deployments/rollback',
    kind: 'DeploymentRollback',
    namespaced: true,
    strategy: defineStrategy({ nameRule: nameRules.dns1123Subdomain, shape }),
  });
  return {
    requestKind,
    targetName: (request: DeploymentRollback) => request.name,
    validate(request: DeploymentRollback): FieldError[] {
      const errors = validateAnnotations(request.updatedAnnotations, 'updatedAnnotations');
      if (!request.name) errors.push(fieldErrors.required('name', 'name is required'));
      // 1.7 reports the revision at this path
      return [...errors, ...nonNegative(request.rollbackTo?.revision, 'rollback.version')];
    },
    apply(object: Deployment, request: DeploymentRollback): void {
      const annotations = request.updatedAnnotations ?? {};
      if (Object.keys(annotations).length > 0) object.metadata.annotations = { ...object.metadata.annotations, ...annotations };
      const revision = request.rollbackTo?.revision;
      object.spec = { ...object.spec, rollbackTo: revision ? { revision } : {} };
    },
  };
}

export const DEPLOYMENT_ROLLBACK: RollbackBinding = deploymentRollback(EXTENSIONS, DEPLOYMENT_ROLLBACK_SHAPE);
