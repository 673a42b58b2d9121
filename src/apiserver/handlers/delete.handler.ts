import { Injectable } from '@nestjs/common';
import { statusDetails } from '../../apimachinery/errors/status-error';
import { toOutput } from '../../registry/object-output';
import { GenericRegistry } from '../../registry/store/generic-registry';
import { ApiRequest, ApiResponse, VerbHandler } from './api-request';
import { readDeleteOptions } from './delete-options.reader';
import { checkPathName } from './request-body';

/**
 * DELETE of one object. Removed at once: a success Status naming it (the federation Cluster answers with the
 * object). Waiting for finalizers: the object, now carrying its deletionTimestamp.
 */
@Injectable()
export class DeleteHandler implements VerbHandler {
  readonly routes = [{ verb: 'delete' as const }];

  constructor(private readonly registry: GenericRegistry) {}

  async handle(request: ApiRequest): Promise<ApiResponse> {
    const { def } = request;
    const name = checkPathName(request);
    const options = readDeleteOptions(request, true);
    const result = await this.registry.delete(def, request.path.namespace, name, options);
    if (!result.removed || def.strategy.deleteReturnsObject) {
      // 1.7 answers 202 when the client explicitly asked not to orphan and the object waits for finalizers.
      const code = !result.removed && options.orphanDependents === false ? 202 : 200;
      return { code, body: toOutput(def, result.object, { withTypeMeta: true }) };
    }
    return {
      code: 200,
      body: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Success',
        details: statusDetails({ name, group: def.group, kind: def.resource, uid: result.object.metadata.uid }),
      },
    };
  }
}
