import { apiErrors, StatusError } from '../../apimachinery/errors/status-error';
import { AuthorizationAttributes } from './attributes';

/**
 * A refusal worded as the apiserver words it: `deployments.extensions "web" is forbidden: User "u" cannot get
 * resource "deployments" in API group "extensions" in the namespace "default"`, then `: <reason>` when the
 * authorizers gave one; for other paths, `forbidden: User "u" cannot get path "/apis"`.
 */
export function forbidden(attributes: AuthorizationAttributes, reason: string): StatusError {
  const { user, verb } = attributes;
  const why = reason ? `: ${reason}` : '';
  if (!attributes.resourceRequest) return apiErrors.forbiddenPath(`User "${user.username}" cannot ${verb} path "${attributes.path}"${why}`);
  const resource = attributes.subresource ? `${attributes.resource}/${attributes.subresource}` : attributes.resource;
  const scope = attributes.namespace ? `in the namespace "${attributes.namespace}"` : 'at the cluster scope';
  return apiErrors.forbidden(
    { group: attributes.apiGroup, resource: attributes.resource },
    attributes.name,
    `User "${user.username}" cannot ${verb} resource "${resource}" in API group "${attributes.apiGroup}" ${scope}${why}`,
  );
}
