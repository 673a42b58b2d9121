import { Injectable } from '@nestjs/common';
import { KubeObject } from '../../apimachinery/meta/kube-object';
import { toOutput } from '../../registry/object-output';
import { GenericRegistry } from '../../registry/store/generic-registry';
import { ApiRequest, ApiResponse, VerbHandler } from './api-request';
import { readDryRun } from './dry-run.reader';
import { checkPathName, patchedObject, readPatch, readReplacement } from './request-body';

/**
 * GET, PUT and PATCH on `{name}/status` (reference §11.1): the whole object, read as on the main path; a write
 * changes only its status. The kind's row says which verbs it serves (a federation Cluster's status is PUT only).
 */
@Injectable()
export class StatusHandler implements VerbHandler {
  readonly routes = [
    { verb: 'get' as const, subresource: 'status' },
    { verb: 'update' as const, subresource: 'status' },
    { verb: 'patch' as const, subresource: 'status' },
  ];

  constructor(private readonly registry: GenericRegistry) {}

  async handle(request: ApiRequest): Promise<ApiResponse> {
    const { def } = request;
    const namespace = request.path.namespace;
    let object: KubeObject;
    if (request.verb === 'get') {
      object = await this.registry.get(def, namespace, checkPathName(request));
    } else if (request.verb === 'update') {
      const options = readDryRun(request.query, 'UpdateOptions');
      const body = readReplacement(request);
      object = await this.registry.update(
        def,
        namespace,
        body.metadata.name as string,
        (current) => this.registry.prepareStatusUpdate(def, structuredClone(body), current),
        options,
      );
    } else {
      const options = readDryRun(request.query, 'PatchOptions');
      const patch = readPatch(request);
      object = await this.registry.update(
        def,
        namespace,
        checkPathName(request),
        (current) => this.registry.prepareStatusUpdate(def, patchedObject(request, patch, current), current),
        options,
      );
    }
    return { code: 200, body: toOutput(def, object, { withTypeMeta: true, subresource: 'status' }) };
  }
}
