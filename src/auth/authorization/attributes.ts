import { RequestInfo } from '../../apiserver/request/request-info';
import { UserInfo } from '../../apimachinery/authentication/user-info';

/** What an authorizer decides on (upstream's authorizer.Attributes): a resource request, or a path outside them. */
export interface AuthorizationAttributes {
  user: UserInfo;
  verb: string;
  /** a request for a resource; otherwise a non-resource path (`path`) */
  resourceRequest: boolean;
  apiGroup: string;
  resource: string;
  subresource: string;
  namespace: string;
  name: string;
  path: string;
}

export function attributesOf(user: UserInfo, info: RequestInfo): AuthorizationAttributes {
  return {
    user,
    verb: info.apiVerb,
    resourceRequest: info.resource !== '',
    apiGroup: info.group,
    resource: info.resource,
    subresource: info.subresource,
    namespace: info.namespace,
    name: info.name,
    path: info.path,
  };
}
