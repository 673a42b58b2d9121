import { Injectable } from '@nestjs/common';
import { toListOutput } from '../../registry/object-output';
import { readListOptions } from '../../registry/store/list-options';
import { listQuery } from '../../registry/store/list-options-query';
import { GenericRegistry } from '../../registry/store/generic-registry';
import { ApiRequest, ApiResponse, VerbHandler } from './api-request';
import { readDeleteOptions } from './delete-options.reader';

/**
 * DELETE of a collection: deletes every object the selectors match (uninitialized ones included) and answers with
 * the list as it was before.
 */
@Injectable()
export class DeleteCollectionHandler implements VerbHandler {
  readonly routes = [{ verb: 'deletecollection' as const }];

  constructor(private readonly registry: GenericRegistry) {}

  async handle(request: ApiRequest): Promise<ApiResponse> {
    const { def } = request;
    const selection = listQuery(def, request.path.namespace, readListOptions(def, request.query, undefined, true));
    const options = readDeleteOptions(request, false);
    const listed = await this.registry.deleteCollection(def, selection, options);
    return { code: 200, body: toListOutput(def, listed.items, listed.resourceVersion, request.path.path) };
  }
}
