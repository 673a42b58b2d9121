import { FieldError } from './field-error';

export type StatusReason =
  | 'BadRequest'
  | 'Unauthorized'
  | 'Forbidden'
  | 'NotFound'
  | 'AlreadyExists'
  | 'Conflict'
  | 'Gone'
  | 'Expired'
  | 'Invalid'
  | 'MethodNotAllowed'
  | 'NotAcceptable'
  | 'UnsupportedMediaType'
  | 'RequestEntityTooLarge'
  | 'Timeout'
  | 'ServerTimeout'
  | 'InternalError'
  | 'ServiceUnavailable'
  | 'TooManyRequests';

export interface StatusDetails {
  name?: string;
  group?: string;
  kind?: string;
  uid?: string;
  causes?: { reason?: string; message?: string; field?: string }[];
  retryAfterSeconds?: number;
}

/** Details as Go writes them: empty name, group, kind and uid are left out (the core group's is ''). */
export function statusDetails(details: StatusDetails): StatusDetails {
  return Object.fromEntries(Object.entries(details).filter(([, value]) => value !== '' && value !== undefined)) as StatusDetails;
}

/** A Kubernetes `Status` object (kind Status, apiVersion v1). */
export interface Status {
  kind: 'Status';
  apiVersion: 'v1';
  /** a ListMeta: a 410 on a list page carries the token that continues it at the newest state */
  metadata: { continue?: string };
  status: 'Success' | 'Failure';
  message?: string;
  reason?: string;
  details?: StatusDetails;
  code?: number;
}

/** An error that the edge turns into a Status response with `code` as the HTTP status. */
export class StatusError extends Error {
  constructor(
    readonly code: number,
    readonly reason: StatusReason | undefined,
    message: string,
    readonly details?: StatusDetails,
    readonly metadata: Status['metadata'] = {},
  ) {
    super(message);
  }

  toStatus(): Status {
    const status: Status = { kind: 'Status', apiVersion: 'v1', metadata: this.metadata, status: 'Failure', message: this.message };
    if (this.reason) status.reason = this.reason;
    if (this.details) status.details = statusDetails(this.details);
    status.code = this.code;
    return status;
  }
}

/** Names a resource the way error messages do: `<resource>.<group>` (GR) and `<Kind>.<group>` (GK). */
export interface ResourceNames {
  group: string;
  resource: string;
  kind: string;
}

const qualified = (name: string, group: string) => (group ? `${name}.${group}` : name);

export const apiErrors = {
  badRequest: (message: string) => new StatusError(400, 'BadRequest', message),

  notFound: (r: Pick<ResourceNames, 'group' | 'resource'>, name: string) =>
    new StatusError(404, 'NotFound', `${qualified(r.resource, r.group)} "${name}" not found`, {
      name,
      group: r.group,
      kind: r.resource,
    }),

  unauthorized: () => new StatusError(401, 'Unauthorized', 'Unauthorized'),

  /** `deployments.extensions "web" is forbidden: User "u" cannot get resource ...` as the apiserver words a refusal */
  forbidden: (r: Pick<ResourceNames, 'group' | 'resource'>, name: string, message: string) =>
    new StatusError(403, 'Forbidden', `${qualified(r.resource, r.group)}${name ? ` "${name}"` : ''} is forbidden: ${message}`, {
      name,
      group: r.group,
      kind: r.resource,
    }),

  /** a refusal of a path outside the API's resources */
  forbiddenPath: (message: string) => new StatusError(403, 'Forbidden', `forbidden: ${message}`, {}),

  pathNotFound: () => new StatusError(404, 'NotFound', 'the server could not find the requested resource', {}),

  alreadyExists: (r: ResourceNames, name: string, beingDeleted: boolean) =>
    new StatusError(
      409,
      'AlreadyExists',
      `${beingDeleted ? 'object is being deleted: ' : ''}${qualified(r.resource, r.group)} "${name}" already exists`,
      { name, group: r.group, kind: r.resource },
    ),

  conflict: (r: ResourceNames, name: string, cause: string) =>
    new StatusError(409, 'Conflict', `Operation cannot be fulfilled on ${qualified(r.resource, r.group)} "${name}": ${cause}`, {
      name,
      group: r.group,
      kind: r.resource,
    }),

  staleResourceVersion: (r: ResourceNames, name: string) =>
    apiErrors.conflict(
      r,
      name,
      'the object has been modified; please apply your changes to the latest version and try again',
    ),

  invalid: (r: ResourceNames, name: string, errors: FieldError[]) => {
    const unique = [...new Map(errors.map((e) => [`${e.field}: ${e.message}`, e])).values()];
    const described = unique.map((e) => (e.field ? `${e.field}: ${e.message}` : e.message));
    const summary = described.length === 1 ? described[0] : `[${described.join(', ')}]`;
    return new StatusError(422, 'Invalid', `${qualified(r.kind, r.group)} "${name}" is invalid: ${summary}`, {
      name,
      group: r.group,
      kind: r.kind,
      causes: unique.map((e) => ({ reason: e.type, message: e.message, field: e.field })),
    });
  },

  methodNotAllowed: () =>
    new StatusError(405, 'MethodNotAllowed', 'the server does not allow this method on the requested resource', {}),

  notAcceptable: (accepted: readonly string[]) =>
    new StatusError(406, 'NotAcceptable', `only the following media types are accepted: ${accepted.join(', ')}`),

  unsupportedMediaType: (accepted: readonly string[]) =>
    new StatusError(
      415,
      'UnsupportedMediaType',
      `the body of the request was in an unknown format - accepted media types include: ${accepted.join(', ')}`,
    ),

  entityTooLarge: (limit: number) =>
    new StatusError(413, 'RequestEntityTooLarge', `Request entity too large: limit is ${limit}`),

  serverTimeout: (operation: string, r: Pick<ResourceNames, 'group' | 'kind'>, retryAfterSeconds?: number) =>
    new StatusError(
      500,
      'ServerTimeout',
      `The ${operation} operation against ${qualified(r.kind, r.group)} could not be completed at this time, please try again.`,
      retryAfterSeconds ? { retryAfterSeconds } : { name: operation, group: r.group, kind: r.kind },
    ),

  /** the database cannot take the request now (unreachable, restarting, failing over): retryable */
  storageUnavailable: (operation: string, r: Pick<ResourceNames, 'group' | 'kind'>, retryAfterSeconds: number) =>
    new StatusError(
      503,
      'ServiceUnavailable',
      `The ${operation} operation against ${qualified(r.kind, r.group)} could not be completed at this time, please try again.`,
      { group: r.group, kind: r.kind, retryAfterSeconds },
    ),

  /** a write whose COMMIT was sent but whose outcome could not be learned: it may or may not be stored */
  writeOutcomeUnknown: (operation: string, r: Pick<ResourceNames, 'group' | 'kind'>) =>
    new StatusError(
      504,
      'Timeout',
      `Timeout: the outcome of the ${operation} operation against ${qualified(r.kind, r.group)} is unknown; read the object before writing it again`,
      { group: r.group, kind: r.kind, retryAfterSeconds: 1 },
    ),

  tooLargeResourceVersion: (requested: string, current: string) =>
    new StatusError(504, 'Timeout', `Timeout: Too large resource version: ${requested}, current: ${current}`, {
      retryAfterSeconds: 1,
    }),

  /** a list at a resourceVersion older than the retained history; `continueToken` continues a paged one anyway */
  expired: (message: string, continueToken?: string) =>
    new StatusError(410, 'Expired', message, undefined, continueToken === undefined ? {} : { continue: continueToken }),

  tooManyRequests: () =>
    new StatusError(429, 'TooManyRequests', 'Too many requests, please try again later.', { retryAfterSeconds: 1 }),

  serviceUnavailable: (message: string) =>
    new StatusError(503, 'ServiceUnavailable', message, { retryAfterSeconds: 1 }),

  internal: (message: string) =>
    new StatusError(500, 'InternalError', `Internal error occurred: ${message}`, { causes: [{ message }] }),
};
