import { Injectable } from '@nestjs/common';
import { readListOptions } from '../../registry/store/list-options';
import { listQuery } from '../../registry/store/list-options-query';
import { validateListOptions } from '../../registry/store/list-options-validation';
import { listContinuation, planList, readPlannedList } from '../../registry/store/consistent-list';
import { GenericRegistry } from '../../registry/store/generic-registry';
import { DatabaseHistory } from '../../storage/database/database-history';
import { convertsByCall } from '../../registry/store/served-version';
import { PROTOBUF_TYPE } from '../codec/media-types';
import { ApiRequest, ApiResponse, VerbHandler } from './api-request';
import { OutputList } from './output-list';
import { StreamedList } from './streamed-list';

/**
 * GET of a collection (one namespace, or all namespaces), filtered by the LIST parameters in SQL, whole (streamed
 * from a cursor) or a page at a time, at the newest state or at the one a resourceVersion or a continue token names.
 */
@Injectable()
export class ListHandler implements VerbHandler {
  readonly routes = [{ verb: 'list' as const }];

  constructor(
    private readonly registry: GenericRegistry,
    private readonly databaseHistory: DatabaseHistory,
  ) {}

  async handle(request: ApiRequest): Promise<ApiResponse> {
    const { def, path } = request;
    const options = readListOptions(def, request.query);
    validateListOptions(options, false);
    const plan = planList(options);
    // 1.7's protobuf ListMeta has no continue field, so a protobuf list is answered whole (a limit is only a hint)
    if (request.negotiated.type === PROTOBUF_TYPE) plan.range = { ...plan.range, limit: undefined };
    // a whole list (and a Table of one) is written as its rows arrive; a page, as large as the client asked, is read
    // whole, as is a list whose objects a call converts (in one call, as upstream's, and answered only once it worked)
    if (plan.range.limit === undefined && !convertsByCall(def)) {
      const cursor = await readPlannedList(
        plan,
        this.databaseHistory,
        (range) => this.registry.openList(def, listQuery(def, path.namespace, options, range, request.projection)),
        (unused) => unused.close(),
      );
      return { code: 200, list: new StreamedList(def, cursor, path.path) };
    }
    const result = await readPlannedList(plan, this.databaseHistory, (range) =>
      this.registry.list(def, listQuery(def, path.namespace, options, range, request.projection), 'output'),
    );
    return { code: 200, body: new OutputList(def, result, path.path, listContinuation(result)) };
  }
}
