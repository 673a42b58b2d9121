import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { StatusError } from '../../apimachinery/errors/status-error';
import { NAMESPACES } from '../../apis/core/core.kinds';
import { SYSTEM_NAMESPACES } from '../../apis/core/namespace/system-namespaces';
import { KindRegistry } from '../../registry/kind-registry';
import { GenericRegistry } from '../../registry/store/generic-registry';

/**
 * Makes the system namespaces that are missing at start (upstream's apiserver does so in its bootstrap controller).
 * Instances that start together race harmlessly: a create that finds the namespace made by another is a 409.
 */
@Injectable()
export class SystemNamespacesBootstrap implements OnApplicationBootstrap {
  private readonly logger = new Logger('SystemNamespaces');

  constructor(
    private readonly registry: GenericRegistry,
    private readonly kinds: KindRegistry,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    const def = this.kinds.find(NAMESPACES.group, NAMESPACES.version, NAMESPACES.resource);
    if (!def) throw new Error('namespaces are not registered');
    const created: string[] = [];
    for (const name of SYSTEM_NAMESPACES) {
      try {
        await this.registry.create(def, { apiVersion: 'v1', kind: 'Namespace', metadata: { name } });
        created.push(name);
      } catch (error) {
        if (!(error instanceof StatusError && error.code === 409)) throw error;
      }
    }
    if (created.length > 0) this.logger.log(`created namespaces ${created.join(', ')}`);
  }
}
