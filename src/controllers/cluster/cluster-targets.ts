import { Injectable } from '@nestjs/common';
import { StatusError } from '../../apimachinery/errors/status-error';
import { Secret } from '../../apis/core/secret/secret.schema';
import { Cluster } from '../../apis/federation/cluster/cluster.schema';
import { Settings } from '../../config/settings';
import { KindDefinition } from '../../registry/kind-definition';
import { KindRegistry } from '../../registry/kind-registry';
import { GenericRegistry } from '../../registry/store/generic-registry';
import { serverAddressFor, serverUrl } from './cluster-address';
import { ClusterCredentials, credentialsFromSecret } from './cluster-credentials';

/** Where and how to probe a member cluster. */
export interface ClusterTarget {
  url: URL;
  credentials: ClusterCredentials;
}

/** What keeps the controller from building a member's client: said in the cluster's Offline condition. */
export class UnusableClusterConfig extends Error {}

/** What `make` returns; what it throws is an UnusableClusterConfig (with `context` before its message). */
function configured<T>(make: () => T, context = ''): T {
  try {
    return make();
  } catch (error) {
    throw new UnusableClusterConfig(`${context}${(error as Error).message}`);
  }
}

/**
 * Federation's client configuration of a member cluster, read afresh for each probe: the address its
 * `serverAddressByClientCIDRs` give this server, and the credentials of the Secret its `secretRef` names in the
 * federation system namespace (none, without a `secretRef`). Throws an UnusableClusterConfig that says what is wrong
 * with them, and any other error of reading the Secret as it is.
 */
@Injectable()
export class ClusterTargets {
  private secrets?: KindDefinition;

  constructor(
    private readonly settings: Settings,
    private readonly registry: GenericRegistry,
    private readonly kinds: KindRegistry,
  ) {}

  async targetOf(cluster: Cluster, host: string): Promise<ClusterTarget> {
    const address = configured(() => serverAddressFor(cluster.spec?.serverAddressByClientCIDRs ?? [], host));
    const ref = cluster.spec?.secretRef;
    if (ref && !ref.name) throw new UnusableClusterConfig('secretRef names no secret');
    const credentials = ref?.name ? await this.credentialsOf(ref.name) : {};
    return { url: configured(() => serverUrl(address, credentials)), credentials };
  }

  private async credentialsOf(name: string): Promise<ClusterCredentials> {
    const namespace = this.settings.FEDERATION_SYSTEM_NAMESPACE;
    let secret: Secret;
    try {
      secret = (await this.registry.get(this.secretKind(), namespace, name)) as Secret;
    } catch (error) {
      if (error instanceof StatusError && error.code === 404) throw new UnusableClusterConfig(`secret "${name}" not found in namespace "${namespace}"`);
      throw error;
    }
    return configured(() => credentialsFromSecret(secret.data ?? {}), `secret "${namespace}/${name}": `);
  }

  private secretKind(): KindDefinition {
    this.secrets ??= this.kinds.find('', 'v1', 'secrets');
    if (!this.secrets) throw new Error('core v1 secrets are not registered');
    return this.secrets;
  }
}
