import { Injectable } from '@nestjs/common';
import { StatusError } from '../../apimachinery/errors/status-error';
import { KubeObject } from '../../apimachinery/meta/kube-object';
import { Deployment } from '../../apis/extensions/deployment/deployment.schema';
import { EXTENSIONS } from '../../apis/extensions/extensions.group';
import { ReplicaSet } from '../../apis/extensions/replicaset/replicaset.schema';
import { EventRecorder } from '../../controller-manager/event-recorder';
import { fieldManagerOf } from '../../registry/field-managers';
import { KindDefinition } from '../../registry/kind-definition';
import { KindRegistry } from '../../registry/kind-registry';
import { ObjectStorage, StatusStorage } from '../../registry/rest/object-storage';
import { GenericRegistry } from '../../registry/store/generic-registry';
import { copyJson } from '../../apimachinery/meta/json-value';

/** The field manager and event source of the controller's writes, as upstream's are recorded. */
const MANAGER = 'kube-controller-manager';
const COMPONENT = 'deployment-controller';

const notFound = (error: unknown) => error instanceof StatusError && error.code === 404;

/**
 * The deployment controller's reads and writes, through the generic store in process as any client's: Deployments and
 * ReplicaSets in their stored extensions/v1beta1 form, each update on the condition that the object is still at the
 * resourceVersion the controller read (a 409 otherwise, and the Deployment is synced again), and its Events.
 */
@Injectable()
export class DeploymentClient {
  private storages?: { deployments: ObjectStorage; deploymentStatus: StatusStorage; replicaSets: ObjectStorage; replicaSetKind: KindDefinition };

  constructor(
    private readonly registry: GenericRegistry,
    private readonly kinds: KindRegistry,
    private readonly events: EventRecorder,
  ) {}

  async createReplicaSet(rs: ReplicaSet): Promise<ReplicaSet> {
    const kind = this.storage().replicaSetKind;
    const fields = fieldManagerOf(kind, 'object', this.kinds);
    return (await this.registry.create(kind, rs, { track: (_, next) => fields.update(undefined, next, MANAGER) })) as ReplicaSet;
  }

  async getReplicaSet(namespace: string, name: string): Promise<ReplicaSet | undefined> {
    return (await this.found(this.storage().replicaSetKind, namespace, name)) as ReplicaSet | undefined;
  }

  async getDeployment(namespace: string, name: string): Promise<Deployment | undefined> {
    return (await this.found(this.storage().deployments.kind, namespace, name)) as Deployment | undefined;
  }

  /** The object, or undefined when it does not exist. */
  private async found(kind: KindDefinition, namespace: string, name: string): Promise<KubeObject | undefined> {
    try {
      return await this.registry.get(kind, namespace, name);
    } catch (error) {
      if (notFound(error)) return undefined;
      throw error;
    }
  }

  /** Writes the ReplicaSet as given (read at its resourceVersion). */
  async updateReplicaSet(rs: ReplicaSet): Promise<ReplicaSet> {
    return (await this.write(this.storage().replicaSets, rs)) as ReplicaSet;
  }

  /** Deletes the very ReplicaSet (its uid) in the background; one gone already is fine. */
  async deleteReplicaSet(rs: ReplicaSet): Promise<void> {
    const { namespace, name, uid } = rs.metadata;
    try {
      await this.registry.delete(this.storage().replicaSetKind, namespace, name as string, { propagationPolicy: 'Background', preconditions: { uid } });
    } catch (error) {
      if (!notFound(error)) throw error;
    }
  }

  async updateDeployment(deployment: Deployment): Promise<Deployment> {
    return (await this.write(this.storage().deployments, deployment)) as Deployment;
  }

  /** Writes the Deployment's status, and its annotations with it (as upstream's UpdateStatus does). */
  async updateDeploymentStatus(deployment: Deployment): Promise<Deployment> {
    return (await this.write(this.storage().deploymentStatus, deployment)) as Deployment;
  }

  event(deployment: Deployment, type: 'Normal' | 'Warning', reason: string, message: string): Promise<void> {
    return this.events.record(COMPONENT, { object: deployment, apiVersion: 'apps/v1', kind: 'Deployment' }, type, reason, message);
  }

  private write(storage: ObjectStorage, object: KubeObject): Promise<KubeObject> {
    return storage.update(object.metadata.namespace, object.metadata.name as string, () => copyJson(object), { manager: MANAGER });
  }

  private storage() {
    if (!this.storages) {
      const deployments = this.kindOf('deployments');
      const replicaSetKind = this.kindOf('replicasets');
      this.storages = {
        deployments: new ObjectStorage(deployments, this.registry, this.kinds),
        deploymentStatus: new StatusStorage(deployments, this.registry, this.kinds),
        replicaSets: new ObjectStorage(replicaSetKind, this.registry, this.kinds),
        replicaSetKind,
      };
    }
    return this.storages;
  }

  private kindOf(resource: string): KindDefinition {
    const def = this.kinds.find(EXTENSIONS.group, EXTENSIONS.version, resource);
    if (!def) throw new Error(`extensions/v1beta1 ${resource} are not registered`);
    return def;
  }
}
