import { KubeObject } from '../../../apimachinery/meta/kube-object';
import { AGE_COLUMN, column, NAME_COLUMN, TableColumn } from '../../../registry/table/table-column';
import { Ingress } from './ingress.schema';

const CLASS_ANNOTATION = 'kubernetes.io/ingress.class';
const MAX_HOSTS = 3;
/** the address column's width, as kubectl's printer cuts it */
const ADDRESS_WIDTH = 16;

/** The first three hosts, and how many more; `*` when no rule names one. */
function hosts(ingress: Ingress): string {
  const rules = ingress.spec?.rules ?? [];
  const named = rules.slice(0, MAX_HOSTS).flatMap((rule) => (rule.host ? [rule.host] : []));
  if (named.length === 0) return '*';
  return rules.length > MAX_HOSTS ? `${named.join(',')} + ${rules.length - MAX_HOSTS} more...` : named.join(',');
}

function address(ingress: Ingress): string {
  const text = (ingress.status?.loadBalancer?.ingress ?? []).flatMap((point) => [point.ip, point.hostname].filter(Boolean)).join(',');
  return text.length > ADDRESS_WIDTH ? `${text.slice(0, ADDRESS_WIDTH - 3)}...` : text;
}

/**
 * `kubectl get ingresses`: NAME CLASS HOSTS ADDRESS PORTS AGE, with the class as the version names it. The rest reads
 * fields every version has where they are.
 */
export const ingressColumns = (className: (ingress: KubeObject) => string | undefined, classPaths: string[][]): readonly TableColumn[] => [
  NAME_COLUMN,
  column('Class', 'string', 'The name of the IngressClass resource.', classPaths, (i) => className(i) ?? '<none>'),
  column('Hosts', 'string', 'Hosts that incoming requests are matched against before the ingress rule.', [['spec', 'rules']], (i) => hosts(i as Ingress)),
  column('Address', 'string', 'Address is a list containing ingress points for the load-balancer.', [['status']], (i) => address(i as Ingress)),
  column('Ports', 'string', 'Ports of TLS configurations that open.', [['spec', 'tls']], (i) => ((i as Ingress).spec?.tls?.length ? '80, 443' : '80')),
  AGE_COLUMN,
];

/** extensions/v1beta1 names the class in an annotation. */
export const INGRESS_COLUMNS = ingressColumns((i) => i.metadata.annotations?.[CLASS_ANNOTATION], []);
