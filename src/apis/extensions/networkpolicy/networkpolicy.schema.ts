import { KindObject, OBJECT_META, resourceKind } from '../../../apimachinery/meta/object-meta-schema';
import { outsideCatalogue, TypeDeclarer } from '../../../apimachinery/schema/go-packages';
import { described, FieldSpecs, oneOf, pointer, required, s } from '../../../apimachinery/schema/schema';
import { LABEL_SELECTOR } from '../../../apimachinery/selectors/label-selector-object';
import { PROTOCOLS } from '../../workloads/pod-template/container.schema';
import { EXTENSIONS_V1BETA1 } from '../extensions.group';

/** What later releases added to a NetworkPolicy's port and peer. */
interface PeerParts<EndPort extends FieldSpecs, IpBlock extends FieldSpecs> {
  /** the protocols a port may name, and what the field says of them */
  protocols: readonly string[];
  protocolMeaning: string;
  /** `endPort`, from 1.21 on */
  endPort: EndPort;
  /** `ipBlock`, from 1.8 on */
  ipBlock: IpBlock;
}

/** The ports, peers and ingress rules of a NetworkPolicy declared in a package (1.7's, or later releases'). */
function networkPolicyRuleTypes<const EndPort extends FieldSpecs, const IpBlock extends FieldSpecs>(pkg: TypeDeclarer, parts: PeerParts<EndPort, IpBlock>) {
  const port = pkg.struct('NetworkPolicyPort', {
    protocol: [1, s.string, oneOf(...parts.protocols), pointer, described(parts.protocolMeaning)],
    port: [2, s.intOrString, described('Port, by number or by name; every port when unset.')],
    ...parts.endPort,
  });
  const peer = pkg.struct('NetworkPolicyPeer', {
    podSelector: [1, LABEL_SELECTOR, described('Pods of the namespace of the policy that may send the traffic.')],
    namespaceSelector: [2, LABEL_SELECTOR, described('Namespaces whose pods may all send the traffic.')],
    ...parts.ipBlock,
  });
  const ingressRule = pkg.struct('NetworkPolicyIngressRule', {
    ports: [1, s.list(port), described('Ports the traffic may reach; every port when empty.')],
    from: [2, s.list(peer), described('Sources the traffic may come from; any source when empty.')],
  });
  return { port, peer, ingressRule };
}

const POD_SELECTOR_DESCRIPTION = described('Pods the policy applies to; every pod of the namespace when empty.');
const SPEC_DESCRIPTION = described('The pods the policy isolates and the traffic it lets in.');

/**
 * The NetworkPolicySpec of later releases (egress, ipBlock, policyTypes, endPort): networking.k8s.io/v1's, and the
 * stored extensions/v1beta1 one.
 */
export function networkPolicySpec(pkg: TypeDeclarer) {
  const ipBlock = pkg.struct('IPBlock', {
    cidr: [1, s.string, required, described('The range of IP addresses, as a CIDR such as 192.168.1.0/24.')],
    except: [2, s.stringList, described('CIDRs within cidr that are not included.')],
  });
  const { port, peer, ingressRule } = networkPolicyRuleTypes(pkg, {
    protocols: [...PROTOCOLS, 'SCTP'],
    protocolMeaning: 'Protocol of the traffic: TCP (the default), UDP or SCTP.',
    endPort: { endPort: [3, s.int32, pointer, described('Last port of a range that starts at port, which must be a number.')] },
    ipBlock: { ipBlock: [3, ipBlock, pointer, described('IP addresses that may send (or receive) the traffic.')] },
  });
  const egressRule = pkg.struct('NetworkPolicyEgressRule', {
    ports: [1, s.list(port), described('Ports the traffic may go to; every port when empty.')],
    to: [2, s.list(peer), described('Destinations the traffic may go to; any destination when empty.')],
  });
  return pkg.struct('NetworkPolicySpec', {
    podSelector: [1, LABEL_SELECTOR, required, POD_SELECTOR_DESCRIPTION],
    ingress: [2, s.list(ingressRule), described('Incoming traffic allowed to reach those pods.')],
    egress: [3, s.list(egressRule), described('Outgoing traffic those pods may send.')],
    policyTypes: [4, s.stringList, described('The directions the policy applies to: Ingress, Egress or both.')],
  });
}

const RULES_1_7 = networkPolicyRuleTypes(EXTENSIONS_V1BETA1, {
  protocols: PROTOCOLS,
  protocolMeaning: 'Protocol of the traffic: TCP (the default) or UDP.',
  endPort: {},
  ipBlock: {},
});

/** The 1.7 NetworkPolicy: ingress rules only. */
const NETWORK_POLICY_SPEC = EXTENSIONS_V1BETA1.struct('NetworkPolicySpec', {
  podSelector: [1, LABEL_SELECTOR, required, POD_SELECTOR_DESCRIPTION],
  ingress: [2, s.list(RULES_1_7.ingressRule), described('Incoming traffic allowed to reach those pods.')],
});

export const NETWORK_POLICY = resourceKind(EXTENSIONS_V1BETA1, 'NetworkPolicy', {
  spec: [2, NETWORK_POLICY_SPEC, SPEC_DESCRIPTION],
});

/**
 * The stored NetworkPolicy: extensions/v1beta1 as later releases had it, which networking.k8s.io/v1 serves;
 * extensions/v1beta1 still serves 1.7's shape.
 */
export const STORED_NETWORK_POLICY = outsideCatalogue(EXTENSIONS_V1BETA1).struct('NetworkPolicy', {
  metadata: [1, OBJECT_META],
  spec: [2, networkPolicySpec(outsideCatalogue(EXTENSIONS_V1BETA1)), SPEC_DESCRIPTION],
});

export type NetworkPolicy = KindObject<typeof NETWORK_POLICY>;
export type StoredNetworkPolicy = KindObject<typeof STORED_NETWORK_POLICY>;
