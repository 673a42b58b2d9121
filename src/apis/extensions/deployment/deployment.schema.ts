import { KindObject, resourceKind } from '../../../apimachinery/meta/object-meta-schema';
import { LABEL_SELECTOR } from '../../../apimachinery/selectors/label-selector-object';
import { GoPackage } from '../../../apimachinery/schema/go-packages';
import { described, FieldSpecs, LeafSchema, mergedBy, pointer, required, s } from '../../../apimachinery/schema/schema';
import { POD_TEMPLATE_SPEC } from '../../workloads/pod-template/pod-template.schema';
import { EXTENSIONS_V1BETA1 } from '../extensions.group';

/**
 * The Deployment of a Go package (extensions/v1beta1, apps/v1beta1, v1beta2, v1): the same fields in each, with
 * `specOnly` (the versions' own fields, such as rollbackTo) in their place, and collisionCount 1.7's int64 or the
 * later int32.
 */
export function deploymentType<const SpecOnly extends FieldSpecs>(pkg: GoPackage, collisionCount: LeafSchema<'int32' | 'int64'>, specOnly: SpecOnly) {
  const rollingUpdate = pkg.struct('RollingUpdateDeployment', {
    maxUnavailable: [1, s.intOrString, described('Most pods that may be unavailable during the update, as a count or a percentage.')],
    maxSurge: [2, s.intOrString, described('Most pods that may exist beyond the desired count during the update, as a count or a percentage.')],
  });
  const strategy = pkg.struct('DeploymentStrategy', {
    type: [1, s.string, described('How old pods are replaced: RollingUpdate (the default) or Recreate.')],
    rollingUpdate: [2, rollingUpdate, described('Parameters of a rolling update.')],
  });
  const spec = pkg.struct('DeploymentSpec', {
    replicas: [1, s.int32, pointer, described('Number of pods the deployment keeps running; 1 by default.')],
    selector: [2, LABEL_SELECTOR, described('Labels a pod must carry to be counted by this deployment.')],
    template: [3, POD_TEMPLATE_SPEC, required, described('Template the pods are made from.')],
    strategy: [4, strategy, described('How old pods are replaced by new ones.')],
    minReadySeconds: [5, s.int32, described('Seconds a new pod must stay ready, no container crashing, to count as available.')],
    revisionHistoryLimit: [6, s.int32, pointer, described('Number of old replica sets kept for rollbacks.')],
    paused: [7, s.boolean, described('Whether changes to the template are held back.')],
    ...specOnly,
    progressDeadlineSeconds: [9, s.int32, pointer, described('Seconds without progress after which the deployment is reported as failed.')],
  });
  const condition = pkg.struct('DeploymentCondition', {
    type: [1, s.string, required, described('Type of the condition, such as Available or Progressing.')],
    status: [2, s.string, required, described('Whether the condition holds: True, False or Unknown.')],
    lastUpdateTime: [6, s.time, described('When the condition was last updated.')],
    lastTransitionTime: [7, s.time, described('When the status of the condition last changed.')],
    reason: [4, s.string, described('Machine-readable reason for the last change, in CamelCase.')],
    message: [5, s.string, described('Human-readable details of the last change.')],
  });
  const status = pkg.struct('DeploymentStatus', {
    observedGeneration: [1, s.int64, described('Generation of the object the controller last acted on.')],
    replicas: [2, s.int32, described('Number of pods of the deployment, old and new.')],
    updatedReplicas: [3, s.int32, described('Number of pods made from the current template.')],
    readyReplicas: [7, s.int32, described('Number of ready pods.')],
    availableReplicas: [4, s.int32, described('Number of pods ready for at least minReadySeconds.')],
    unavailableReplicas: [5, s.int32, described('Number of pods still missing for the deployment to be fully available.')],
    conditions: [6, s.list(condition), mergedBy('type'), described('Latest observations of the state of the deployment.')],
    collisionCount: [8, collisionCount, pointer, described('Number of hash collisions met naming replica sets, used to avoid the next.')],
  });
  return resourceKind(pkg, 'Deployment', {
    spec: [2, spec, described('Desired state of the deployment.')],
    status: [3, status, described('Observed state of the deployment, written by its controller.')],
  });
}

/** The rollback request of the packages whose Deployments have `spec.rollbackTo` (extensions/v1beta1, apps/v1beta1). */
export function rollbackTypes(pkg: GoPackage) {
  const rollbackConfig = pkg.struct('RollbackConfig', {
    revision: [1, s.int64, described('Revision to go back to; 0 means the one before the current.')],
  });
  const deploymentRollback = pkg.struct('DeploymentRollback', {
    name: [1, s.string, required, described('Name of the deployment to roll back.')],
    updatedAnnotations: [2, s.stringMap, described('Annotations to set on the deployment along with the rollback.')],
    rollbackTo: [3, rollbackConfig, required, described('Revision to roll back to.')],
  });
  const specOnly = { rollbackTo: [8, rollbackConfig, described('Revision to roll back to; cleared once done.')] } as const;
  return { deploymentRollback, specOnly };
}

const EXTENSIONS_ROLLBACK = rollbackTypes(EXTENSIONS_V1BETA1);

export const DEPLOYMENT = deploymentType(EXTENSIONS_V1BETA1, s.int64, EXTENSIONS_ROLLBACK.specOnly);

export type Deployment = KindObject<typeof DEPLOYMENT>;

export const DEPLOYMENT_ROLLBACK = EXTENSIONS_ROLLBACK.deploymentRollback;
