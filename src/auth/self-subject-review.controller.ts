import { Controller, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { JSON_TYPE } from '../apiserver/codec/media-types';
import { negotiate } from '../apiserver/codec/negotiation';
import { apiErrors } from '../apimachinery/errors/status-error';
import { sendValue } from '../apiserver/http/reply';
import { AUTHENTICATION_V1 } from '../apis/core/serviceaccount/token-request.schema';

export const AUTHENTICATION_GROUP = { ...AUTHENTICATION_V1, legacyDiscovery: false };

/**
 * `authentication.k8s.io/v1` SelfSubjectReview (what `kubectl auth whoami` asks): the request's own user, as the
 * filters put it on the request. Nothing is stored; the answer is JSON (the kind has no protobuf message here).
 */
@Controller()
export class SelfSubjectReviewController {
  @Post('apis/authentication.k8s.io/v1/selfsubjectreviews')
  create(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const user = request.auth?.user;
    if (!user) throw apiErrors.unauthorized();
    const negotiated = negotiate(request.headers.accept, false);
    const userInfo = {
      username: user.username,
      ...(user.uid ? { uid: user.uid } : {}),
      groups: user.groups,
      ...(user.extra ? { extra: user.extra } : {}),
    };
    const review = {
      kind: 'SelfSubjectReview',
      apiVersion: `${AUTHENTICATION_V1.group}/${AUTHENTICATION_V1.version}`,
      metadata: { creationTimestamp: null },
      status: { userInfo },
    };
    sendValue(request, reply, 201, review, { ...negotiated, type: JSON_TYPE });
  }
}
