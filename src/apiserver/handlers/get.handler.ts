import { Injectable } from '@nestjs/common';
import { KubeObject } from '../../apimachinery/meta/kube-object';
import { toOutput } from '../../registry/object-output';
import { prepareForCreate } from '../../registry/store/object-preparation';
import { looseBool, param } from '../../apimachinery/parameters/query';
import { GenericRegistry } from '../../registry/store/generic-registry';
import { ApiRequest, ApiResponse, VerbHandler } from './api-request';
import { checkPathName } from './request-body';

/** GET of one object, with the `export` and `exact` forms (reference §7.5). */
@Injectable()
export class GetHandler implements VerbHandler {
  readonly routes = [{ verb: 'get' as const }];

  constructor(private readonly registry: GenericRegistry) {}

  async handle(request: ApiRequest): Promise<ApiResponse> {
    const name = checkPathName(request);
    const object = await this.registry.get(request.def, request.path.namespace, name);
    const exported = looseBool(param(request.query, 'export'))
      ? this.export(request, object, looseBool(param(request.query, 'exact')))
      : object;
    return {
      code: 200,
      body: toOutput(request.def, exported, { withTypeMeta: true, request: request.path }),
    };
  }

  /** Strips what a user cannot set, then applies the kind's create preparation, as the apiserver's export does. */
  private export(request: ApiRequest, object: KubeObject, exact: boolean): KubeObject {
    const meta = object.metadata;
    const exported = { ...object, metadata: { ...meta } };
    prepareForCreate(request.def, exported);
    const exportedMeta = exported.metadata;
    delete exportedMeta.uid;
    delete exportedMeta.resourceVersion;
    exportedMeta.creationTimestamp = null;
    if (!exact) {
      delete exportedMeta.namespace;
      if (exportedMeta.generateName) delete exportedMeta.name;
    }
    return exported;
  }
}
