import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request as httpRequest, IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dump } from 'js-yaml';
import { acceptedHosts, hostnameOf, servesHost } from '../src/auth/insecure-host.filter';
import { loadSettings } from '../src/config/settings';
import { http } from './support/http';
import { kindNamed } from './support/kinds';
import { startTestServer, TestServer } from './support/test-server';
import { auditEventsIn } from './support/audit-log';

interface Answer {
  status: number;
  json: any;
}

/** A body as JSON, or as its text when it is not JSON (the probes' `ok`). */
function parsed(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

const answer = (response: IncomingMessage): Promise<Answer> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    response.on('data', (chunk: Buffer) => chunks.push(chunk));
    response.on('end', () => resolve({ status: response.statusCode ?? 0, json: parsed(Buffer.concat(chunks).toString('utf8')) }));
    response.on('error', reject);
  });

/**
 * One request with exactly this `Host` header; without a host, an HTTP/1.0 request written on a socket (an HTTP/1.1
 * one without Host never reaches the server's routes: Node answers it 400 itself).
 */
function send(base: string, method: string, path: string, host: string | undefined, body?: unknown): Promise<Answer> {
  const url = new URL(base);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const headers: Record<string, string> = payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(payload)) };
  if (host === undefined) {
    return new Promise((resolve, reject) => {
      const socket = connect(Number(url.port), url.hostname, () => {
        const lines = [`${method} ${path} HTTP/1.0`, ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`), '', payload ?? ''];
        socket.write(lines.join('\r\n'));
      });
      const chunks: Buffer[] = [];
      socket.on('data', (chunk: Buffer) => chunks.push(chunk));
      socket.on('error', reject);
      socket.on('end', () => {
        const [head, text] = Buffer.concat(chunks).toString('utf8').split('\r\n\r\n', 2);
        resolve({ status: Number(head.split(' ')[1]), json: parsed(text) });
      });
    });
  }
  const options = { method, path, hostname: url.hostname, port: url.port, headers: { ...headers, host }, agent: false };
  return new Promise((resolve, reject) => {
    const request =
      url.protocol === 'https:'
        ? httpsRequest({ ...options, rejectUnauthorized: false, servername: 'localhost' }, (response) => answer(response).then(resolve, reject))
        : httpRequest(options, (response) => answer(response).then(resolve, reject));
    request.on('error', reject);
    request.end(payload);
  });
}

const DEPLOYMENTS = '/apis/extensions/v1beta1/namespaces/default/deployments';

describe('which hosts the insecure port serves', () => {
  const loopback = acceptedHosts(loadSettings({}));
  const served = (host: string | undefined, url = '/api', secure = false) => servesHost({ secure, host, url }, loopback);

  it.each([
    ['localhost', true],
    ['LocalHost:8080', true],
    ['127.0.0.1', true],
    ['127.1.2.3:80', true],
    ['[::1]', true],
    ['[::1]:8080', true],
    ['localhost:', true],
    ['evil.example.com', false],
    ['127.0.0.1.nip.io', false],
    ['localhost.evil.example.com:8080', false],
    ['[::ffff:7f00:1]', false],
    ['::1', false],
    ['', false],
  ])('%j: %s', (host, expected) => {
    expect(served(host)).toBe(expected);
  });

  it('matches the host without its port, IPv6 in brackets', () => {
    expect(hostnameOf('Example.COM:8080')).toBe('example.com');
    expect(hostnameOf('[::1]:8080')).toBe('[::1]');
    expect(hostnameOf('[fe80::1]')).toBe('[fe80::1]');
  });

  it('refuses a request without a host, but for probes; the secure port serves any host', () => {
    expect(served(undefined)).toBe(false);
    expect(served(undefined, '/healthz')).toBe(true);
    for (const path of ['/healthz', '/livez/ping', '/readyz?verbose']) expect(served('evil.example.com', path)).toBe(true);
    expect(served('evil.example.com', '/healthzz')).toBe(false);
    expect(served('evil.example.com', '/api', true)).toBe(true);
  });

  it('adds the hosts of --insecure-accept-hosts to the loopback ones, and the bind address with --insecure-allow-remote', () => {
    const widened = acceptedHosts(loadSettings({}, [String.raw`--insecure-accept-hosts=\.internal$`]));
    expect(servesHost({ secure: false, host: 'pgkube.internal:8080', url: '/api' }, widened)).toBe(true);
    expect(servesHost({ secure: false, host: '127.0.0.1', url: '/api' }, widened)).toBe(true);
    expect(servesHost({ secure: false, host: 'pgkube.external', url: '/api' }, widened)).toBe(false);
    const remote = acceptedHosts(loadSettings({}, ['--insecure-bind-address=192.0.2.10', '--insecure-allow-remote=true']));
    expect(servesHost({ secure: false, host: '192.0.2.10:8080', url: '/api' }, remote)).toBe(true);
    expect(servesHost({ secure: false, host: 'localhost', url: '/api' }, remote)).toBe(true);
    expect(servesHost({ secure: false, host: '192.0.2.11', url: '/api' }, remote)).toBe(false);
    const remoteV6 = acceptedHosts(loadSettings({}, ['--insecure-bind-address=2001:DB8::10', '--insecure-allow-remote=true']));
    expect(servesHost({ secure: false, host: '[2001:db8::10]:8080', url: '/api' }, remoteV6)).toBe(true);
  });

  it('rejects a pattern that is not a regular expression', () => {
    expect(() => loadSettings({ INSECURE_ACCEPT_HOSTS: '^localhost$,[' })).toThrow(
      /INSECURE_ACCEPT_HOSTS \(--insecure-accept-hosts\) = "\^localhost\$,\[": INSECURE_ACCEPT_HOSTS must be a comma list of regular expressions/,
    );
  });
});

describe('the insecure port against DNS rebinding', () => {
  jest.setTimeout(60_000);
  let work: string;
  let server: TestServer;
  const auditLog = () => join(work, 'audit.log');
  /** The audit log's events so far (the file is made with the first batch). */
  const auditEvents = (): any[] => auditEventsIn(auditLog());

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'pgkube-hosts-'));
    const policy = {
      apiVersion: 'audit.k8s.io/v1',
      kind: 'Policy',
      omitStages: ['RequestReceived'],
      rules: [{ level: 'None', nonResourceURLs: ['/healthz*', '/livez*', '/readyz*'] }, { level: 'Metadata' }],
    };
    writeFileSync(join(work, 'policy.yaml'), dump(policy));
    server = await startTestServer(undefined, {
      SECURE_PORT: '0',
      CERT_DIR: join(work, 'certs'),
      AUDIT_POLICY_FILE: join(work, 'policy.yaml'),
      AUDIT_LOG_PATH: auditLog(),
    });
  });

  afterAll(async () => {
    await server?.close();
    rmSync(work, { recursive: true, force: true });
  });

  it('serves only requests addressed to a loopback name', async () => {
    const port = new URL(server.url).port;
    const statuses: Record<string, number> = {};
    for (const host of ['evil.example.com', '127.0.0.1.nip.io', `localhost:${port}`, `[::1]:${port}`, `127.0.0.1:${port}`, undefined]) {
      statuses[host ?? 'none'] = (await send(server.url, 'GET', DEPLOYMENTS, host)).status;
    }
    expect(statuses).toEqual({
      'evil.example.com': 403,
      '127.0.0.1.nip.io': 403,
      [`localhost:${port}`]: 200,
      [`[::1]:${port}`]: 200,
      [`127.0.0.1:${port}`]: 200,
      none: 403,
    });
  });

  it('refuses with a Forbidden Status that names the host, and writes nothing', async () => {
    const manifest = { ...kindNamed('Deployment').manifest, metadata: { name: 'rebound', namespace: 'default' } };
    const refused = await send(server.url, 'POST', DEPLOYMENTS, 'evil.example.com', manifest);
    expect(refused).toEqual({
      status: 403,
      json: {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: 'forbidden: the insecure port does not serve host "evil.example.com" (see --insecure-accept-hosts)',
        reason: 'Forbidden',
        details: {},
        code: 403,
      },
    });
    const none = await send(server.url, 'POST', DEPLOYMENTS, undefined, manifest);
    expect(none.json).toMatchObject({ reason: 'Forbidden', message: 'forbidden: the insecure port serves no request without a Host header' });
    expect((await http(server.url, 'GET', `${DEPLOYMENTS}/rebound`)).status).toBe(404);
    expect(await server.sql(`SELECT 1 FROM objects WHERE name = 'rebound'`)).toEqual([]);
  });

  it('logs a refused request with its host, and audits it', async () => {
    const lines: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    const spy = jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array, ...rest: any[]) => {
      lines.push(String(chunk));
      return write(chunk, ...rest);
    });
    try {
      expect((await send(server.url, 'DELETE', `${DEPLOYMENTS}/logged`, 'rebind.example.com:8080')).status).toBe(403);
    } finally {
      spy.mockRestore();
    }
    const logged = lines.flatMap((line) => line.trim().split('\n')).map((line) => JSON.parse(line));
    expect(logged).toContainEqual(
      expect.objectContaining({ level: 'warn', context: 'InsecureHost', host: 'rebind.example.com:8080', method: 'DELETE', uri: `${DEPLOYMENTS}/logged` }),
    );

    const isRefusal = (event: any) => event.objectRef?.name === 'logged' && event.stage === 'ResponseComplete';
    let events: any[] = [];
    for (let i = 0; i < 50 && !events.some(isRefusal); i++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      events = auditEvents();
    }
    expect(events.find(isRefusal)).toMatchObject({
      verb: 'delete',
      user: {},
      objectRef: { resource: 'deployments', namespace: 'default', name: 'logged' },
      responseStatus: { code: 403, reason: 'Forbidden', message: expect.stringContaining('"rebind.example.com:8080"') },
    });
  });

  it('answers probes whatever their host', async () => {
    for (const path of ['/healthz', '/livez', '/readyz', '/readyz/ping']) {
      expect(await send(server.url, 'GET', path, 'evil.example.com')).toEqual({ status: 200, json: 'ok' });
    }
    expect((await send(server.url, 'GET', '/healthz', undefined)).status).toBe(200);
  });

  it('leaves the secure port to authenticate and authorize every host', async () => {
    const secureUrl = server.secureUrl as string;
    expect(await send(secureUrl, 'GET', '/version', 'evil.example.com')).toMatchObject({ status: 200, json: { major: expect.any(String) } });
    const anonymous = await send(secureUrl, 'GET', DEPLOYMENTS, 'evil.example.com');
    expect(anonymous.json).toMatchObject({ code: 403, message: expect.stringContaining('User "system:anonymous" cannot list') });
  });
});

describe('--insecure-accept-hosts', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(undefined, { INSECURE_ACCEPT_HOSTS: String.raw`^pgkube\.test$` });
  });
  afterAll(() => server?.close());

  it('serves the hosts it names, and no others', async () => {
    expect((await send(server.url, 'GET', DEPLOYMENTS, 'pgkube.test:8080')).status).toBe(200);
    expect((await send(server.url, 'GET', DEPLOYMENTS, 'localhost')).status).toBe(200);
    expect((await send(server.url, 'GET', DEPLOYMENTS, 'other.test')).status).toBe(403);
  });
});
