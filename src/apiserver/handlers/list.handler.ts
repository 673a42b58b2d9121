import { Injectable } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { apiErrors } from '../../apimachinery/errors/status-error';
import { listConditions, readListOptions } from '../../registry/store/list-options';
import { GenericRegistry } from '../../registry/store/generic-registry';
import { OutputListResult } from '../../registry/store/object-store';
import { SqlCondition } from '../../registry/store/sql-params';
import { ApiRequest, ApiResponse, VerbHandler } from './api-request';
import { OutputList } from './output-list';

/** How long a list asking for a resourceVersion newer than the newest committed one waits before a 504. */
const FRESHNESS_WAIT_MS = 3000;
const FRESHNESS_POLL_MS = 100;

/** GET of a collection (one namespace, or all namespaces), filtered by the LIST parameters in SQL. */
@Injectable()
export class ListHandler implements VerbHandler {
  readonly routes = [{ verb: 'list' as const }];

  constructor(private readonly registry: GenericRegistry) {}

  async handle(request: ApiRequest): Promise<ApiResponse> {
    const { def, path } = request;
    const options = readListOptions(def, request.query);
    const result = await this.listAtLeast(request, listConditions(def, options), options.resourceVersion);
    return { code: 200, body: new OutputList(def, result, path.path) };
  }

  /** Every variant of `resourceVersion` is served from the current state, which must be at least as new as asked. */
  private async listAtLeast(request: ApiRequest, conditions: SqlCondition[], minimum: string | undefined): Promise<OutputListResult> {
    const deadline = Date.now() + FRESHNESS_WAIT_MS;
    for (;;) {
      const result = await this.registry.listForOutput(request.def, request.path.namespace, conditions, request.projection);
      if (minimum === undefined || BigInt(result.resourceVersion) >= BigInt(minimum)) return result;
      if (Date.now() >= deadline) throw apiErrors.tooLargeResourceVersion(minimum, result.resourceVersion);
      await sleep(FRESHNESS_POLL_MS);
    }
  }
}
