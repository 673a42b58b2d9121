import { Injectable } from '@nestjs/common';
import { readListOptions } from '../../registry/store/list-options';
import { validateListOptions } from '../../registry/store/list-options-validation';
import { WatchService } from '../../watch/watch.service';
import { ApiRequest, ApiResponse, VerbHandler } from './api-request';

/**
 * A watch: `?watch=true` on a collection, or a /watch/ path (for one object, its name acts as a metadata.name field
 * selector). Answers with a stream of events.
 */
@Injectable()
export class WatchHandler implements VerbHandler {
  readonly routes = [{ verb: 'watch' as const }];

  constructor(private readonly watches: WatchService) {}

  async handle(request: ApiRequest): Promise<ApiResponse> {
    const { def, path } = request;
    const options = readListOptions(def, request.query, path.watchPath ? path.name : undefined);
    validateListOptions(options, true);
    return { code: 200, events: await this.watches.open(def, path.namespace, options) };
  }
}
