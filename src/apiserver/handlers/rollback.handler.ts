import { Injectable } from '@nestjs/common';
import { apiErrors } from '../../apimachinery/errors/status-error';
import { GenericRegistry } from '../../registry/store/generic-registry';
import { ApiRequest, ApiResponse, VerbHandler } from './api-request';
import { readWriteOptions } from './dry-run.reader';
import { checkPathName, readObject } from './request-body';
import { subresourceBinding } from './subresource';

/**
 * POST to `{name}/rollback`: records the requested rollback on the stored object, straight on
 * storage (no strategy, no generation change, no precondition), and answers 201 with a Status saying 200.
 */
@Injectable()
export class RollbackHandler implements VerbHandler {
  readonly routes = [{ verb: 'create' as const, subresource: 'rollback' }];

  constructor(private readonly registry: GenericRegistry) {}

  async handle(request: ApiRequest): Promise<ApiResponse> {
    const { def } = request;
    const binding = subresourceBinding(request, 'rollback');
    const options = readWriteOptions(request, 'CreateOptions');
    const name = checkPathName(request);
    const rollback = readObject(request, binding.requestKind);
    const target = binding.targetName(rollback);
    const errors = binding.validate(rollback);
    if (errors.length > 0) throw apiErrors.invalid(binding.requestKind, target ?? '', errors);
    if (target !== name) {
      throw apiErrors.badRequest(`the name of the object (${target}) does not match the name on the URL (${name})`);
    }
    await this.registry.update(
      def,
      request.path.namespace,
      name,
      (current) => {
        binding.apply(current, rollback);
        return current;
      },
      options,
    );
    return {
      code: 201,
      body: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Success',
        message: `rollback request for ${def.kind.toLowerCase()} "${name}" succeeded`,
        code: 200,
      },
    };
  }
}
