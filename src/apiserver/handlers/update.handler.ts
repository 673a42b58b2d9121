import { Injectable } from '@nestjs/common';
import { toOutput } from '../../registry/object-output';
import { GenericRegistry } from '../../registry/store/generic-registry';
import { ApiRequest, ApiResponse, VerbHandler } from './api-request';
import { readDryRun } from './dry-run.reader';
import { readReplacement } from './request-body';

/** PUT of one object: a whole replacement, conditional when the body carries a resourceVersion (reference §4.2). */
@Injectable()
export class UpdateHandler implements VerbHandler {
  readonly routes = [{ verb: 'update' as const }];

  constructor(private readonly registry: GenericRegistry) {}

  async handle(request: ApiRequest): Promise<ApiResponse> {
    const options = readDryRun(request.query, 'UpdateOptions');
    const body = readReplacement(request);
    const updated = await this.registry.update(
      request.def,
      request.path.namespace,
      body.metadata.name as string,
      (current) => this.registry.prepareUpdate(request.def, structuredClone(body), current),
      options,
    );
    return { code: 200, body: toOutput(request.def, updated, { withTypeMeta: true }) };
  }
}
