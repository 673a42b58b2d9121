import { Injectable, Logger } from '@nestjs/common';
import { FastifyRequest } from 'fastify';
import { isIP } from 'node:net';
import { networkInterfaces } from 'node:os';
import { apiErrors } from '../apimachinery/errors/status-error';
import { RequestFilter } from '../apiserver/request/request-filter';
import { Settings } from '../config/settings';
import { tlsSocketOf } from './request-auth';

/** The hosts the insecure port answers: patterns of `--insecure-accept-hosts`, and exact names. */
export interface AcceptedHosts {
  patterns: readonly RegExp[];
  names: ReadonlySet<string>;
}

/** What the check needs of a request. */
export interface HostedRequest {
  /** it came on the secure port */
  secure: boolean;
  /** the `Host` header (HTTP/2's `:authority`), undefined when the request has none */
  host: string | undefined;
  url: string;
}

/** The loopback names, which the insecure port always answers: `kubectl proxy --accept-hosts`' default, any 127.x. */
const LOOPBACK_HOSTS: readonly RegExp[] = [/^localhost$/, /^127\.[0-9]+\.[0-9]+\.[0-9]+$/, /^\[::1\]$/];

/** Probes ask these, from wherever the load balancer or kubelet sends them. */
const PROBE_PATH = /^\/(healthz|livez|readyz)(\/|\?|$)/;

/** The comma list of `--insecure-accept-hosts` as expressions; empty items are skipped (as patterns they would match every host). */
const hostPatterns = (list: string): RegExp[] =>
  list
    .split(',')
    .filter((item) => item !== '')
    .map((item) => new RegExp(item));

/** A host as matched: lower case, without its port; an IPv6 address keeps its brackets, as the header writes it. */
export function hostnameOf(host: string): string {
  const lower = host.toLowerCase();
  return /^(\[[^\]]*\]|[^:]*)(:[0-9]*)?$/.exec(lower)?.[1] ?? lower;
}

/** The addresses a bind address is reached at: itself, or every address of this machine for 0.0.0.0 and ::. */
function addressesOf(bindAddress: string): string[] {
  if (bindAddress !== '0.0.0.0' && bindAddress !== '::') return [bindAddress];
  const family = bindAddress === '::' ? undefined : 'IPv4';
  return Object.values(networkInterfaces())
    .flatMap((addresses) => addresses ?? [])
    .filter((address) => !family || address.family === family)
    .map((address) => address.address);
}

/**
 * The hosts the settings accept: the loopback ones, those of `--insecure-accept-hosts`, and with
 * `--insecure-allow-remote` the addresses the insecure port listens on, so that clients elsewhere may name it by address.
 */
export function acceptedHosts(settings: Pick<Settings, 'INSECURE_ACCEPT_HOSTS' | 'INSECURE_ALLOW_REMOTE' | 'INSECURE_BIND_ADDRESS'>): AcceptedHosts {
  const names = settings.INSECURE_ALLOW_REMOTE ? addressesOf(settings.INSECURE_BIND_ADDRESS) : [];
  return {
    patterns: [...LOOPBACK_HOSTS, ...hostPatterns(settings.INSECURE_ACCEPT_HOSTS)],
    names: new Set(names.map((address) => (isIP(address) === 6 ? `[${address.toLowerCase()}]` : address))),
  };
}

/**
 * Whether a request may be served: the secure port authenticates every request and serves any host; the insecure
 * port, where every request is a superuser, only hosts it accepts (and probes). A request without a host is refused
 * there, as `kubectl proxy` refuses what its patterns do not match.
 */
export function servesHost(request: HostedRequest, accepted: AcceptedHosts): boolean {
  if (request.secure || PROBE_PATH.test(request.url)) return true;
  if (request.host === undefined) return false;
  const name = hostnameOf(request.host);
  return accepted.names.has(name) || accepted.patterns.some((pattern) => pattern.test(name));
}

/**
 * Refuses requests on the insecure port for hosts it does not serve, before anything else looks at them. A web page
 * whose name the attacker re-resolves to 127.0.0.1 (DNS rebinding) reaches the insecure port from the user's browser
 * with its own name as the `Host`; without this check it could read and change every object.
 */
@Injectable()
export class InsecureHostFilter implements RequestFilter {
  private readonly logger = new Logger('InsecureHost');
  private readonly accepted: AcceptedHosts;

  constructor(settings: Settings) {
    this.accepted = acceptedHosts(settings);
  }

  /** Throws the 403 Status when the request's host is not served on its port. */
  filter(request: FastifyRequest): void {
    const headers = request.raw.headers;
    const host = headers.host ?? (headers[':authority'] as string | undefined);
    if (servesHost({ secure: tlsSocketOf(request) !== undefined, host, url: request.url }, this.accepted)) return;
    this.logger.warn({ message: 'refused a request for a host the insecure port does not serve', host, method: request.method, uri: request.url, remoteAddr: request.ip });
    throw apiErrors.forbiddenPath(
      host === undefined
        ? 'the insecure port serves no request without a Host header'
        : `the insecure port does not serve host ${JSON.stringify(host)} (see --insecure-accept-hosts)`,
    );
  }
}
