import { SubresourceDefinition } from '../../registry/kind-definition';
import { ApiRequest } from './api-request';

/** The subresource of the request's path and its binding (scale, rollback, token), which the kind's row declares. */
export function subresourceBinding<K extends 'scale' | 'rollback' | 'token'>(request: ApiRequest, key: K): NonNullable<SubresourceDefinition[K]> {
  const binding = request.def.subresources.find((sub) => sub.name === request.path.subresource)?.[key];
  if (!binding) throw new Error(`${request.def.resource}/${request.path.subresource} has no ${key} binding`);
  return binding as NonNullable<SubresourceDefinition[K]>;
}
