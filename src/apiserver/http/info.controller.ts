import { Controller, Get, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { JSON_TYPE, PROTOBUF_TYPE } from '../codec/media-types';
import { negotiate } from '../codec/negotiation';
import { sendValue } from './reply';

/** The version this server reports: the API it serves is that of Kubernetes 1.7. */
export const SERVER_VERSION = {
  major: '1',
  minor: '7',
  gitVersion: 'v1.7.4+pgkube',
  gitCommit: '',
  gitTreeState: 'clean',
  buildDate: '1970-01-01T00:00:00Z',
  goVersion: `node${process.versions.node}`,
  compiler: 'pgkube',
  platform: `${process.platform}/${process.arch === 'x64' ? 'amd64' : process.arch}`,
};

/** The server-level paths outside the API groups. */
@Controller()
export class InfoController {
  @Get('version')
  version(@Req() request: FastifyRequest, @Res() reply: FastifyReply) {
    const negotiated = negotiate(request.headers.accept, false);
    // the version document has no protobuf message: the apiserver answers it in JSON
    sendValue(request, reply, 200, SERVER_VERSION, negotiated.type === PROTOBUF_TYPE ? { ...negotiated, type: JSON_TYPE } : negotiated);
  }
}
