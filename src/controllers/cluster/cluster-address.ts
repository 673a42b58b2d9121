import { BlockList, isIPv4, isIPv6 } from 'node:net';
import { networkInterfaces } from 'node:os';
import { Cluster } from '../../apis/federation/cluster/cluster.schema';
import { ClusterCredentials } from './cluster-credentials';

type ServerAddress = NonNullable<NonNullable<Cluster['spec']>['serverAddressByClientCIDRs']>[number];

/**
 * This server's address as a client of the member clusters (federation took its host interface's): the first IPv4
 * address of the machine beyond loopback, else the first IPv6 one, else 127.0.0.1.
 */
export function hostAddress(): string {
  const addresses = Object.values(networkInterfaces()).flatMap((list) => list ?? []).filter((a) => !a.internal);
  return (addresses.find((a) => a.family === 'IPv4') ?? addresses.find((a) => a.family === 'IPv6'))?.address ?? '127.0.0.1';
}

function holds(cidr: string, address: string): boolean {
  const [network, prefix, ...rest] = cidr.split('/');
  const family = isIPv4(network) ? 'ipv4' : isIPv6(network) ? 'ipv6' : undefined;
  const bits = Number(prefix);
  if (!family || rest.length > 0 || !/^\d+$/.test(prefix ?? '') || bits > (family === 'ipv4' ? 32 : 128)) throw new Error(`invalid clientCIDR ${JSON.stringify(cidr)}`);
  const block = new BlockList();
  block.addSubnet(network, bits, family);
  return block.check(address, isIPv4(address) ? 'ipv4' : 'ipv6');
}

/** As federation: the address of the first entry whose clientCIDR holds `host` (`0.0.0.0/0` holds every IPv4 address). */
export function serverAddressFor(entries: readonly ServerAddress[], host: string): string {
  const found = entries.find((entry) => holds(entry.clientCIDR ?? '', host));
  if (!found) throw new Error(`no serverAddressByClientCIDRs entry's clientCIDR holds this server's address ${host}`);
  if (!found.serverAddress) throw new Error(`the serverAddressByClientCIDRs entry of ${found.clientCIDR} has no serverAddress`);
  return found.serverAddress;
}

/** client-go's default server URL: an address without a scheme is https when TLS is configured, http otherwise. */
export function serverUrl(address: string, credentials: ClusterCredentials): URL {
  const tls = !!(credentials.ca || credentials.cert || credentials.insecureSkipTlsVerify);
  try {
    return new URL(address.includes('://') ? address : `${tls ? 'https' : 'http'}://${address}`);
  } catch {
    throw new Error(`invalid serverAddress ${JSON.stringify(address)}`);
  }
}
