import { Injectable } from '@nestjs/common';
import { StatusError } from '../../apimachinery/errors/status-error';
import { Cluster } from '../../apis/federation/cluster/cluster.schema';
import { FEDERATION } from '../../apis/federation/federation.group';
import { KindRegistry } from '../../registry/kind-registry';
import { StatusStorage } from '../../registry/rest/object-storage';
import { GenericRegistry } from '../../registry/store/generic-registry';
import { ClusterCondition } from './cluster-conditions';
import { copyJson } from '../../apimachinery/meta/json-value';

/** The field manager of the controller's writes (federation's controller manager). */
const MANAGER = 'federation-controller-manager';

/** Writes a Cluster's conditions through `clusters/status`, as federation's controller did (its UpdateStatus). */
@Injectable()
export class ClusterStatusWriter {
  private storage?: StatusStorage;

  constructor(
    private readonly registry: GenericRegistry,
    private readonly kinds: KindRegistry,
  ) {}

  /**
   * Replaces the conditions of the Cluster that was probed with what `next` makes of its current ones; nothing when
   * it is gone, or is another Cluster of the same name by now. The other fields of the status stay.
   */
  async write(probed: Cluster, next: (previous: ClusterCondition[] | undefined) => ClusterCondition[]): Promise<void> {
    const name = probed.metadata.name as string;
    try {
      await this.statusStorage().update(
        undefined,
        name,
        (current) => {
          if (current.metadata.uid !== probed.metadata.uid) return current;
          const cluster = copyJson(current) as Cluster;
          return { ...cluster, status: { ...cluster.status, conditions: next(cluster.status?.conditions) } };
        },
        { manager: MANAGER },
      );
    } catch (error) {
      if (!(error instanceof StatusError && error.code === 404)) throw error;
    }
  }

  private statusStorage(): StatusStorage {
    if (!this.storage) {
      const def = this.kinds.find(FEDERATION.group, FEDERATION.version, 'clusters');
      if (!def) throw new Error('federation/v1beta1 clusters are not registered');
      this.storage = new StatusStorage(def, this.registry, this.kinds);
    }
    return this.storage;
  }
}
