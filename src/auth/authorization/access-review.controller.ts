import { Controller, Inject, Param, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { decodeDocument, RawBody } from '../../apiserver/codec/body-decoder';
import { negotiate } from '../../apiserver/codec/negotiation';
import { sendValue } from '../../apiserver/http/reply';
import { FieldError, fieldErrors } from '../../apimachinery/errors/field-error';
import { apiErrors } from '../../apimachinery/errors/status-error';
import { UserInfo } from '../../apimachinery/authentication/user-info';
import { AuthorizationAttributes } from './attributes';
import type { Authorizer } from './authorizer';
import { AUTHORIZER } from './authorizer.token';
import './access-review.schema';

export const AUTHORIZATION_GROUP = { group: 'authorization.k8s.io', version: 'v1', legacyDiscovery: false };
const API_VERSION = 'authorization.k8s.io/v1';

type Doc = Record<string, any>;

interface Review {
  kind: string;
  spec: Doc;
}

/** The request body: a review of the kind the path serves; its spec must ask about a resource or about a path. */
function readReview(request: FastifyRequest, kind: string): Review {
  const document = decodeDocument(request.body as RawBody, request.headers['content-type'], kind, API_VERSION) as Doc;
  if (!document || typeof document !== 'object' || Array.isArray(document)) throw apiErrors.badRequest(`the object provided is unrecognized (must be of type ${kind})`);
  return { kind, spec: document.spec && typeof document.spec === 'object' ? document.spec : {} };
}

/** Upstream's check of a review's spec: exactly one of resourceAttributes and nonResourceAttributes. */
function attributesErrors(spec: Doc): FieldError[] {
  const [resource, path] = [spec.resourceAttributes, spec.nonResourceAttributes];
  if (!resource && !path) return [fieldErrors.required('spec.resourceAttributes', 'exactly one of nonResourceAttributes or resourceAttributes must be specified')];
  if (resource && path) return [fieldErrors.invalid('spec.nonResourceAttributes', path, 'cannot be specified in combination with resourceAttributes')];
  return [];
}

function attributesFrom(spec: Doc, user: UserInfo): AuthorizationAttributes {
  const resource: Doc | undefined = spec.resourceAttributes;
  const path: Doc = spec.nonResourceAttributes ?? {};
  const text = (value: unknown) => (typeof value === 'string' ? value : '');
  return {
    user,
    verb: text(resource ? resource.verb : path.verb),
    resourceRequest: !!resource,
    apiGroup: text(resource?.group),
    resource: text(resource?.resource),
    subresource: text(resource?.subresource),
    namespace: text(resource?.namespace),
    name: text(resource?.name),
    path: text(path.path),
  };
}

const invalid = (kind: string, errors: FieldError[]) => apiErrors.invalid({ group: AUTHORIZATION_GROUP.group, resource: '', kind }, '', errors);

/**
 * authorization.k8s.io/v1 reviews (what `kubectl auth can-i` asks): SelfSubjectAccessReview and
 * SelfSubjectRulesReview answer for the request's own user, SubjectAccessReview and LocalSubjectAccessReview for
 * the user the spec names (RBAC lets admins create those). Each answer is the authorizer's decision on the
 * attributes, as enforcement would decide a request; nothing is stored.
 */
@Controller('apis/authorization.k8s.io/v1')
export class AccessReviewController {
  constructor(@Inject(AUTHORIZER) private readonly authorizer: Authorizer) {}

  @Post('selfsubjectaccessreviews')
  selfSubjectAccessReview(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const review = readReview(request, 'SelfSubjectAccessReview');
    const errors = attributesErrors(review.spec);
    if (errors.length > 0) throw invalid(review.kind, errors);
    this.answer(request, reply, review, this.decide(attributesFrom(review.spec, requester(request))));
  }

  @Post('subjectaccessreviews')
  subjectAccessReview(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const review = readReview(request, 'SubjectAccessReview');
    this.answer(request, reply, review, this.reviewFor(review));
  }

  @Post('namespaces/:namespace/localsubjectaccessreviews')
  localSubjectAccessReview(@Req() request: FastifyRequest, @Res() reply: FastifyReply, @Param('namespace') namespace: string) {
    const review = readReview(request, 'LocalSubjectAccessReview');
    const asked = review.spec.resourceAttributes?.namespace;
    if (asked !== namespace) {
      throw invalid(review.kind, [fieldErrors.invalid('spec.resourceAttributes.namespace', asked ?? '', 'must match metadata.namespace')]);
    }
    this.answer(request, reply, review, this.reviewFor(review));
  }

  @Post('selfsubjectrulesreviews')
  selfSubjectRulesReview(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const review = readReview(request, 'SelfSubjectRulesReview');
    const namespace = typeof review.spec.namespace === 'string' ? review.spec.namespace : '';
    const { rules, errors } = this.authorizer.rulesFor(requester(request), namespace);
    const status: Doc = {
      resourceRules: rules.filter((r) => !r.nonResourceURLs?.length).map((r) => ({ verbs: r.verbs, apiGroups: r.apiGroups, resources: r.resources, resourceNames: r.resourceNames })),
      nonResourceRules: rules.filter((r) => r.nonResourceURLs?.length).map((r) => ({ verbs: r.verbs, nonResourceURLs: r.nonResourceURLs })),
      incomplete: errors.length > 0,
    };
    if (errors.length > 0) status.evaluationError = errors.join(', ');
    this.answer(request, reply, review, status);
  }

  /** A review for the user its spec names: a user or at least one group is needed. */
  private reviewFor(review: Review): Doc {
    const { spec } = review;
    const errors = attributesErrors(spec);
    const groups: string[] = Array.isArray(spec.groups) ? spec.groups.filter((g: unknown) => typeof g === 'string') : [];
    if (!spec.user && groups.length === 0) errors.push(fieldErrors.invalid('spec.user', spec.user ?? '', 'at least one of user or group must be specified'));
    if (errors.length > 0) throw invalid(review.kind, errors);
    const user: UserInfo = { username: String(spec.user ?? ''), groups, ...(spec.uid ? { uid: String(spec.uid) } : {}), ...(spec.extra ? { extra: spec.extra } : {}) };
    return this.decide(attributesFrom(spec, user));
  }

  private decide(attributes: AuthorizationAttributes): Doc {
    const { decision, reason } = this.authorizer.authorize(attributes);
    return { allowed: decision === 'allow', ...(decision === 'deny' ? { denied: true } : {}), ...(reason ? { reason } : {}) };
  }

  private answer(request: FastifyRequest, reply: FastifyReply, review: Review, status: Doc): void {
    const body = { kind: review.kind, apiVersion: API_VERSION, metadata: { creationTimestamp: null }, spec: review.spec, status };
    sendValue(request, reply, 201, body, negotiate(request.headers.accept, false));
  }
}

function requester(request: FastifyRequest): UserInfo {
  const user = request.auth?.user;
  if (!user) throw apiErrors.unauthorized();
  return user;
}
