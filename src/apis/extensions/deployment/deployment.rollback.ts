import { FieldError, fieldErrors } from '../../../apimachinery/errors/field-error';
import { KubeObject } from '../../../apimachinery/meta/kube-object';
import { validateAnnotations } from '../../../apimachinery/meta/object-meta-validation';
import { defineKind } from '../../../registry/define-kind';
import { defineStrategy, RollbackBinding } from '../../../registry/kind-definition';
import { TypeOf } from '../../../apimachinery/schema/type-of';
import { Deployment, DEPLOYMENT_ROLLBACK as DEPLOYMENT_ROLLBACK_SHAPE } from './deployment.schema';
import { nameRules } from '../../../apimachinery/validation/names';
import { nonNegative } from '../../../apimachinery/validation/numbers';
import { EXTENSIONS } from '../extensions.group';

/** The request as a rollback binding receives it: decoded as any object is, its members those of its shape. */
type DeploymentRollback = KubeObject & TypeOf<typeof DEPLOYMENT_ROLLBACK_SHAPE>;

/** DeploymentRollback, the body of `deployments/{name}/rollback`: no metadata, the deployment named in `name`. */
const DEPLOYMENT_ROLLBACK_KIND = defineKind(EXTENSIONS, {
  resource: 'deployments/rollback',
  kind: 'DeploymentRollback',
  namespaced: true,
  strategy: defineStrategy({
    nameRule: nameRules.dns1123Subdomain,
    shape: DEPLOYMENT_ROLLBACK_SHAPE,
  }),
});

/** A rollback records the wanted revision and the annotations on the Deployment; its controller does the rest. */
export const DEPLOYMENT_ROLLBACK: RollbackBinding = {
  requestKind: DEPLOYMENT_ROLLBACK_KIND,
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
