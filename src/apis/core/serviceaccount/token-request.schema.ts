import { OBJECT_META } from '../../../apimachinery/meta/object-meta-schema';
import { goPackage } from '../../../apimachinery/schema/go-packages';
import { alwaysWritten, atomic, described, pointer, required, s } from '../../../apimachinery/schema/schema';
import { TypeOf } from '../../../apimachinery/schema/type-of';
import { KubeObject } from '../../../apimachinery/meta/kube-object';

/** authentication.k8s.io/v1, whose TokenRequest is the body and answer of `serviceaccounts/{name}/token`. */
export const AUTHENTICATION_V1 = { group: 'authentication.k8s.io', version: 'v1' };

const AUTHENTICATION_V1_TYPES = goPackage('k8s.io.api.authentication.v1', `${AUTHENTICATION_V1.group}/${AUTHENTICATION_V1.version}`);

const BOUND_OBJECT_REFERENCE = AUTHENTICATION_V1_TYPES.struct('BoundObjectReference', {
  kind: [1, s.string, described('Kind of the object the token is bound to: Secret (Pod and Node are not served here).')],
  apiVersion: [2, s.string, described('API version of the object the token is bound to.')],
  name: [3, s.string, described('Name of the object the token is bound to, in the account\'s namespace.')],
  uid: [4, s.string, described('UID of the object the token is bound to; checked when given.')],
});

const TOKEN_REQUEST_SPEC = AUTHENTICATION_V1_TYPES.struct('TokenRequestSpec', {
  audiences: [1, s.stringList, atomic, required, described('Audiences the token is for; the API server\'s own (--api-audiences) when empty.')],
  expirationSeconds: [4, s.int64, pointer, alwaysWritten, described('Seconds the token is valid for: 3600 by default, at least 600.')],
  boundObjectRef: [3, BOUND_OBJECT_REFERENCE, alwaysWritten, described('Object the token is bound to: it stops authenticating when that object goes.')],
});

const TOKEN_REQUEST_STATUS = AUTHENTICATION_V1_TYPES.struct('TokenRequestStatus', {
  token: [1, s.string, required, described('The signed token (a JWT).')],
  expirationTimestamp: [2, s.time, required, described('When the token expires.')],
});

export const TOKEN_REQUEST = AUTHENTICATION_V1_TYPES.struct('TokenRequest', {
  metadata: [1, OBJECT_META, described('Standard object metadata; name and namespace, when given, must be the service account\'s.')],
  spec: [2, TOKEN_REQUEST_SPEC, required, described('The token asked for.')],
  status: [3, TOKEN_REQUEST_STATUS, described('The token issued, filled in by the server.')],
});

export type TokenRequest = KubeObject & TypeOf<typeof TOKEN_REQUEST>;
