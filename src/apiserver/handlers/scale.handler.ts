import { Injectable } from '@nestjs/common';
import { KubeObject } from '../../apimachinery/meta/kube-object';
import { toOutput } from '../../registry/object-output';
import { ScaleRegistry } from '../../registry/scale/scale-registry';
import { ApiRequest, ApiResponse, VerbHandler } from './api-request';
import { readDryRun } from './dry-run.reader';
import { checkPathName, patchedObject, readPatch, readReplacement } from './request-body';
import { subresourceBinding } from './subresource';

/** GET, PUT and PATCH on `{name}/scale` (reference §11.2): the object seen and resized as a Scale. */
@Injectable()
export class ScaleHandler implements VerbHandler {
  readonly routes = [
    { verb: 'get' as const, subresource: 'scale' },
    { verb: 'update' as const, subresource: 'scale' },
    { verb: 'patch' as const, subresource: 'scale' },
  ];

  constructor(private readonly scales: ScaleRegistry) {}

  async handle(request: ApiRequest): Promise<ApiResponse> {
    const { def } = request;
    const binding = subresourceBinding(request, 'scale');
    const scaleKind = binding.version.kind;
    const namespace = request.path.namespace;
    let scale: KubeObject;
    if (request.verb === 'get') {
      scale = await this.scales.get(def, binding, namespace, checkPathName(request));
    } else if (request.verb === 'update') {
      const options = readDryRun(request.query, 'UpdateOptions');
      const body = readReplacement(request, scaleKind);
      const name = body.metadata.name as string;
      scale = await this.scales.update(def, binding, namespace, name, () => structuredClone(body), options);
    } else {
      const options = readDryRun(request.query, 'PatchOptions');
      const patch = readPatch(request, scaleKind);
      scale = await this.scales.update(
        def,
        binding,
        namespace,
        checkPathName(request),
        (current) => patchedObject(request, patch, current, scaleKind),
        options,
      );
    }
    return { code: 200, body: toOutput(def, scale, { withTypeMeta: true, subresource: 'scale', typeMeta: scaleKind }) };
  }
}
