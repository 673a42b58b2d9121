import { Injectable } from '@nestjs/common';
import { KubeObject } from '../../apimachinery/meta/kube-object';
import { looseBool, param } from '../../apimachinery/parameters/query';
import { Storages } from '../../registry/rest/storages';
import { prepareForCreate } from '../../registry/store/object-preparation';
import { ApiRequest, ApiResponse, VerbHandler } from './api-request';
import { checkPathName } from './request-body';
import { EncodedJson } from '../codec/response-encoder';

/** GET of one object or of a subresource's view of it, with the `export` and `exact` forms. */
@Injectable()
export class GetHandler implements VerbHandler {
  readonly routes = [{ verb: 'get' as const }, { verb: 'get' as const, subresource: '*' }];

  constructor(private readonly storages: Storages) {}

  async handle(request: ApiRequest): Promise<ApiResponse> {
    const storage = this.storages.of(request.def, request.path.subresource);
    const exporting = looseBool(param(request.query, 'export'));
    // resourceVersion=0: any state will do (upstream serves it from its cache), so a streaming standby may answer
    const mayBeStale = param(request.query, 'resourceVersion') === '0';
    if (storage.readJson && !exporting && !request.negotiated.table) {
      const text = await storage.readJson(request.path.namespace, checkPathName(request), mayBeStale);
      return { code: 200, body: new EncodedJson(() => text) };
    }
    const object = await storage.get(request.path.namespace, checkPathName(request), mayBeStale);
    const exported = exporting
      ? this.export(request, object, looseBool(param(request.query, 'exact')))
      : object;
    return { code: 200, body: storage.output(exported, request.path) };
  }

  /** Strips what a user cannot set, then applies the kind's create preparation, as the apiserver's export does. */
  private export(request: ApiRequest, object: KubeObject, exact: boolean): KubeObject {
    const meta = object.metadata;
    const exported = { ...object, metadata: { ...meta } };
    prepareForCreate(request.def, exported);
    const exportedMeta = exported.metadata;
    delete exportedMeta.uid;
    delete exportedMeta.resourceVersion;
    // a manifest to create from: the entries name this object's writers, which a create would adopt
    delete exportedMeta.managedFields;
    exportedMeta.creationTimestamp = null;
    if (!exact) {
      delete exportedMeta.namespace;
      if (exportedMeta.generateName) delete exportedMeta.name;
    }
    return exported;
  }
}
