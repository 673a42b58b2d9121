import { Injectable } from '@nestjs/common';
import { toOutput } from '../../registry/object-output';
import { parseGoDuration } from '../../apimachinery/parameters/duration';
import { param } from '../../apimachinery/parameters/query';
import { GenericRegistry } from '../../registry/store/generic-registry';
import { InitializationWaiter } from '../../watch/initialization-waiter';
import { ApiRequest, ApiResponse, VerbHandler } from './api-request';
import { readWriteOptions } from './dry-run.reader';
import { readManager } from './field-manager.reader';
import { fieldManagerOf } from '../../registry/field-managers';
import { KindRegistry } from '../../registry/kind-registry';
import { readObject, settleNamespace } from './request-body';

/** How long a write may take when the request names no `timeout` (as the apiserver). */
const DEFAULT_WRITE_TIMEOUT_MS = 30_000;

/**
 * POST to a collection: creates an object (201). An object created with pending initializers is answered once they
 * are done, or at once with 202 when the request says `includeUninitialized=1`. A dry run has
 * nothing to wait for: it answers at once with the object as stored.
 */
@Injectable()
export class CreateHandler implements VerbHandler {
  readonly routes = [{ verb: 'create' as const }];

  constructor(
    private readonly registry: GenericRegistry,
    private readonly initialization: InitializationWaiter,
    private readonly kinds: KindRegistry,
  ) {}

  async handle(request: ApiRequest): Promise<ApiResponse> {
    const { def } = request;
    const { dryRun, user } = readWriteOptions(request, 'CreateOptions');
    const { manager } = readManager(request, 'CreateOptions');
    const object = readObject(request);
    settleNamespace(request, object, true);
    const fields = fieldManagerOf(def, 'object', this.kinds);
    let created = await this.registry.create(def, object, { dryRun, user, track: (_, next) => fields.update(undefined, next, manager) });
    let code = 201;
    if (created.metadata.initializers) {
      if (param(request.query, 'includeUninitialized') === '1') {
        code = 202;
      } else if (!dryRun) {
        const timeout = parseGoDuration(param(request.query, 'timeout') ?? '') ?? DEFAULT_WRITE_TIMEOUT_MS;
        created = await this.initialization.wait(def, created, timeout);
      }
    }
    return { code, body: toOutput(def, created, { withTypeMeta: true }) };
  }
}
