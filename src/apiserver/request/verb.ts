import { Verb } from '../../registry/kind-definition';
import { looseBool, param, Query } from '../../apimachinery/parameters/query';
import { ResourcePath } from './resource-path';

/** The API verb of a request (the apiserver's RequestInfo verb); undefined when the method has none on that path. */
export function resolveVerb(method: string, path: ResourcePath, query: Query): Verb | undefined {
  const item = path.name !== undefined;
  if (path.watchPath) return method === 'GET' ? 'watch' : undefined; // the /watch/ paths serve GET alone
  switch (method) {
    case 'GET':
      if (item) return 'get';
      return looseBool(param(query, 'watch')) ? 'watch' : 'list';
    case 'POST':
      return !item || path.subresource !== undefined ? 'create' : undefined;
    case 'PUT':
      return item ? 'update' : undefined;
    case 'PATCH':
      return item ? 'patch' : undefined;
    case 'DELETE':
      return item ? 'delete' : 'deletecollection';
    default:
      return undefined;
  }
}
