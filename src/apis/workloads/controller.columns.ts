import { KubeObject } from '../../apimachinery/meta/kube-object';
import { column, TableColumn } from '../../registry/table/table-column';
import { PodTemplateSpec } from './pod-template/pod-template.schema';

/** Every pod controller (ReplicationController too): a template in its spec. */
type WithTemplate = KubeObject & { spec?: { template?: PodTemplateSpec } };

const CONTAINERS = ['spec', 'template', 'spec', 'containers'];

const containers = (object: KubeObject) => (object as WithTemplate).spec?.template?.spec?.containers ?? [];

/** What `-o wide` adds for every pod controller: its template's containers and images, and its selector. */
export function templateColumns(selector: (object: KubeObject) => string, selectorDescription: string): TableColumn[] {
  return [
    column('Containers', 'string', 'Names of each container in the template.', [CONTAINERS], (o) => containers(o).map((c) => c.name ?? '').join(','), 1),
    column('Images', 'string', 'Images referenced by each container in the template.', [CONTAINERS], (o) => containers(o).map((c) => c.image ?? '').join(','), 1),
    column('Selector', 'string', selectorDescription, [['spec', 'selector']], selector, 1),
  ];
}

/** A number of a status or spec, 0 when absent (Go's zero value). */
export const count = (object: KubeObject, part: 'spec' | 'status', field: string): number =>
  ((object[part] as Record<string, number> | undefined)?.[field] ?? 0) as number;
