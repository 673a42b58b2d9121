import { apiErrors } from '../../apimachinery/errors/status-error';
import { Query } from '../../apimachinery/parameters/query';
import { WriteOptions } from '../../registry/store/generic-registry';
import { ApiRequest } from './api-request';

/** The options type whose `dryRun` a write reads, as the apiserver names it in its 422. */
export type WriteOptionsKind = 'CreateOptions' | 'UpdateOptions' | 'PatchOptions' | 'DeleteOptions';

const DRY_RUN_ALL = 'All';

/** Every value of a query parameter given once or repeated. */
export function queryValues(query: Query, name: string): string[] {
  const value = query[name];
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/**
 * Whether a write is a dry run: `dryRun` lists the stages to skip, and `All` is the only one there is; any other
 * value is refused as the current apiserver's options validation refuses it (422 on `<Kind>.meta.k8s.io`).
 */
export function dryRunOf(values: readonly string[], kind: WriteOptionsKind): boolean {
  if (values.some((value) => value !== DRY_RUN_ALL)) {
    const given = values.map((v) => JSON.stringify(v)).join(', ');
    throw apiErrors.invalid({ group: 'meta.k8s.io', kind, resource: '' }, '', [
      {
        type: 'FieldValueNotSupported',
        field: 'dryRun',
        message: `Unsupported value: []string{${given}}: supported values: "${DRY_RUN_ALL}"`,
      },
    ]);
  }
  return values.length > 0;
}

/** The options of a create, update or patch: its `dryRun` query parameter, and who asks for it. */
export function readWriteOptions(request: Pick<ApiRequest, 'query' | 'user'>, kind: Exclude<WriteOptionsKind, 'DeleteOptions'>): WriteOptions {
  return { dryRun: dryRunOf(queryValues(request.query, 'dryRun'), kind), user: request.user };
}
