import { Injectable } from '@nestjs/common';
import { toListOutput } from '../meta/object-output';
import { GenericRegistry } from '../store/generic-registry';
import { ApiRequest, ApiResponse, VerbHandler } from './api-request';
import { readDeleteOptions } from './delete-options.reader';

/** DELETE of a collection: deletes every matching object and answers with the list as it was before. */
@Injectable()
export class DeleteCollectionHandler implements VerbHandler {
  readonly routes = [{ verb: 'deletecollection' as const }];

  constructor(private readonly registry: GenericRegistry) {}

  async handle(request: ApiRequest): Promise<ApiResponse> {
    const options = readDeleteOptions(request, false);
    const listed = await this.registry.deleteCollection(request.def, request.path.namespace, [], options);
    return { code: 200, body: toListOutput(request.def, listed.items, listed.resourceVersion, request.path.path) };
  }
}
