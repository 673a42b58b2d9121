import { BlockList, isIP } from 'node:net';
import { FieldError, fieldErrors } from '../../../apimachinery/errors/field-error';
import { validateLabelSelector } from '../../../apimachinery/selectors/label-selector-object';
import { validatePortNumOrName } from '../../workloads/pod-template/handler.validation';
import { StoredNetworkPolicy } from '../../extensions/networkpolicy/networkpolicy.schema';

const PROTOCOLS = ['SCTP', 'TCP', 'UDP'];
const POLICY_TYPES = ['Ingress', 'Egress'];

type Spec = NonNullable<StoredNetworkPolicy['spec']>;
type Port = NonNullable<NonNullable<Spec['ingress']>[number]['ports']>[number];
type Peer = NonNullable<NonNullable<Spec['ingress']>[number]['from']>[number];

/** A CIDR's address and prefix length, or undefined when it is not one. */
function parseCidr(cidr: string): { address: string; prefix: number; family: 'ipv4' | 'ipv6' } | undefined {
  const [address, prefixText, ...rest] = cidr.split('/');
  const version = isIP(address ?? '');
  const prefix = Number(prefixText);
  if (rest.length || !version || !/^\d+$/.test(prefixText ?? '') || prefix > (version === 4 ? 32 : 128)) return undefined;
  return { address, prefix, family: version === 4 ? 'ipv4' : 'ipv6' };
}

function validatePort(port: Port, field: string): FieldError[] {
  const errors: FieldError[] = [];
  if (port.protocol !== undefined && !PROTOCOLS.includes(port.protocol)) errors.push(fieldErrors.notSupported(`${field}.protocol`, port.protocol, PROTOCOLS));
  if (port.port !== undefined) errors.push(...validatePortNumOrName(port.port, `${field}.port`));
  if (port.endPort !== undefined) {
    if (typeof port.port !== 'number') errors.push(fieldErrors.required(`${field}.port`, 'must be specified when endPort is specified'));
    else if (port.endPort < port.port) errors.push(fieldErrors.invalid(`${field}.endPort`, port.endPort, 'must be greater than or equal to `port`'));
  }
  return errors;
}

function validateIpBlock(block: NonNullable<Peer['ipBlock']>, field: string): FieldError[] {
  if (!block.cidr) return [fieldErrors.required(`${field}.cidr`)];
  const cidr = parseCidr(block.cidr);
  if (!cidr) return [fieldErrors.invalid(`${field}.cidr`, block.cidr, 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)')];
  const range = new BlockList();
  range.addSubnet(cidr.address, cidr.prefix, cidr.family);
  const errors: FieldError[] = [];
  (block.except ?? []).forEach((except, i) => {
    const inner = parseCidr(except);
    if (!inner) errors.push(fieldErrors.invalid(`${field}.except[${i}]`, except, 'must be a valid CIDR value, (e.g. 10.9.8.0/24 or 2001:db8::/64)'));
    else if (inner.family !== cidr.family || inner.prefix <= cidr.prefix || !range.check(inner.address, inner.family)) {
      errors.push(fieldErrors.invalid(`${field}.except[${i}]`, except, 'must be a strict subset of `cidr`'));
    }
  });
  return errors;
}

function validatePeer(peer: Peer, field: string): FieldError[] {
  const errors: FieldError[] = [];
  let peers = 0;
  for (const kind of ['podSelector', 'namespaceSelector'] as const) {
    if (peer[kind] === undefined) continue;
    peers += 1;
    errors.push(...validateLabelSelector(peer[kind], `${field}.${kind}`));
  }
  if (peer.ipBlock) {
    if (peers > 0) errors.push(fieldErrors.forbidden(field, 'may not specify both ipBlock and another peer'));
    errors.push(...validateIpBlock(peer.ipBlock, `${field}.ipBlock`));
    peers += 1;
  }
  if (peers === 0) errors.push(fieldErrors.required(field, 'must specify a peer'));
  return errors;
}

/** upstream's ValidateNetworkPolicySpec, of the stored form that networking.k8s.io/v1 has the fields of. */
export function validateNetworkPolicyV1(policy: StoredNetworkPolicy): FieldError[] {
  const spec = policy.spec ?? {};
  const errors = validateLabelSelector(spec.podSelector, 'spec.podSelector');
  const directions = [
    ['ingress', spec.ingress?.map((rule) => ({ ports: rule.ports, peers: rule.from })), 'from'],
    ['egress', spec.egress?.map((rule) => ({ ports: rule.ports, peers: rule.to })), 'to'],
  ] as const;
  for (const [direction, rules, peersName] of directions) {
    (rules ?? []).forEach((rule, i) => {
      const field = `spec.${direction}[${i}]`;
      (rule.ports ?? []).forEach((port, j) => errors.push(...validatePort(port, `${field}.ports[${j}]`)));
      (rule.peers ?? []).forEach((peer, j) => errors.push(...validatePeer(peer, `${field}.${peersName}[${j}]`)));
    });
  }
  const types = spec.policyTypes ?? [];
  types.forEach((type, i) => {
    if (!POLICY_TYPES.includes(type)) errors.push(fieldErrors.notSupported(`spec.policyTypes[${i}]`, type, POLICY_TYPES));
  });
  if (types.length > POLICY_TYPES.length) errors.push(fieldErrors.invalid('spec.policyTypes', types, 'may not specify more than two policyTypes'));
  return errors;
}
