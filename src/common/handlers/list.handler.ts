import { Injectable } from '@nestjs/common';
import { toListOutput } from '../meta/object-output';
import { GenericRegistry } from '../store/generic-registry';
import { ApiRequest, ApiResponse, VerbHandler } from './api-request';

/** GET of a collection (one namespace, or all namespaces). */
@Injectable()
export class ListHandler implements VerbHandler {
  readonly routes = [{ verb: 'list' as const }];

  constructor(private readonly registry: GenericRegistry) {}

  async handle(request: ApiRequest): Promise<ApiResponse> {
    const { resourceVersion, items } = await this.registry.list(request.def, request.path.namespace);
    return { code: 200, body: toListOutput(request.def, items, resourceVersion, request.path.path) };
  }
}
