import { Injectable } from '@nestjs/common';
import { toOutput } from '../meta/object-output';
import { GenericRegistry } from '../store/generic-registry';
import { ApiRequest, ApiResponse, VerbHandler } from './api-request';
import { readObject, settleNamespace } from './request-body';

/** POST to a collection: creates an object (201). */
@Injectable()
export class CreateHandler implements VerbHandler {
  readonly routes = [{ verb: 'create' as const }];

  constructor(private readonly registry: GenericRegistry) {}

  async handle(request: ApiRequest): Promise<ApiResponse> {
    const object = readObject(request);
    settleNamespace(request, object, true);
    const created = await this.registry.create(request.def, object);
    return { code: 201, body: toOutput(request.def, created, { withTypeMeta: true }) };
  }
}
