import Ajv from 'ajv';
import { execFileSync, spawnSync } from 'node:child_process';
import { createPrivateKey } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { certsJob, MAKE_CERTS } from './support/compose-certs';
import { freePort } from './support/global-setup';
import { http } from './support/http';
import { kubectl, KubectlClient, KUBECTLS } from './support/kubectl';
import { OPENSSL } from './support/pki';
import { startTestServer, TestServer } from './support/test-server';

/**
 * The container files, checked without a Docker engine: docker-compose.yml against the Compose Specification's
 * schema (test/fixtures/compose-spec, see SOURCE.md there) and for the topology it must describe; the Dockerfile for
 * its stages; the load balancer's configuration by HAProxy itself when it is installed (.ci/run installs it); the
 * certificates and the administrator's kubeconfig deploy/make-certs.sh makes, by kubectl against a server with the
 * instances' TLS settings.
 */
const root = join(__dirname, '..');
const read = (file: string) => readFileSync(join(root, file), 'utf8');
const composeSchema = JSON.parse(read('test/fixtures/compose-spec/compose-spec.json'));

type Service = {
  build?: unknown;
  image?: string;
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  entrypoint?: string[];
  restart?: string;
  healthcheck?: { test: string[] };
  ports?: string[];
  volumes?: string[];
};
type Compose = { services: Record<string, Service>; volumes?: Record<string, unknown> };

// The schema names its meta-schema by an address Ajv does not know; the schema itself is what matters here.
const validate = new Ajv({ strict: false, validateSchema: false, allErrors: true }).compile(composeSchema);

function validateCompose(document: unknown) {
  const valid = validate(document);
  return { valid, errors: validate.errors ?? [] };
}

const compose = load(read('docker-compose.yml')) as Compose;
const instances = Object.entries(compose.services).filter(([, s]) => s.image?.startsWith('pgkube'));

describe('docker-compose.yml', () => {
  it('is valid under the Compose Specification schema', () => {
    const { valid, errors } = validateCompose(compose);
    expect(errors).toEqual([]);
    expect(valid).toBe(true);
  });

  it('would be rejected by the schema if it were malformed (the check can fail)', () => {
    const broken = structuredClone(compose);
    (broken.services.postgres as Record<string, unknown>).healthcheck = { test: 'pg_isready', intervall: '5s' };
    expect(validateCompose(broken).valid).toBe(false);
  });

  it('runs PostgreSQL on a volume, two or more instances once it is healthy, and a load balancer once they are', () => {
    const postgres = compose.services.postgres;
    expect(postgres.volumes?.some((v) => v.endsWith(':/var/lib/postgresql/data'))).toBe(true);
    expect(Object.keys(compose.volumes ?? {})).toContain((postgres.volumes as string[])[0].split(':')[0]);
    expect(instances.length).toBeGreaterThanOrEqual(2);
    for (const [, instance] of instances) {
      expect(instance.build).toBeDefined();
      expect(instance.environment?.DATABASE_URL).toMatch(/@postgres:5432\//);
      expect(instance.depends_on?.postgres).toEqual({ condition: 'service_healthy' });
      expect(instance.depends_on?.certs).toEqual({ condition: 'service_completed_successfully' });
      expect(instance.healthcheck?.test.join(' ')).toContain('/readyz');
      expect(instance.ports).toBeUndefined(); // reached through the load balancer only
    }
    const lb = compose.services.lb;
    expect(lb.ports).toEqual(['6443:6443']);
    expect(Object.keys(lb.depends_on ?? {}).sort()).toEqual(instances.map(([name]) => name).sort());
    expect(Object.values(lb.depends_on ?? {}).every((d) => d.condition === 'service_healthy')).toBe(true);
    // every long-running service has a health check; the one-shot certs service runs to its end
    for (const [name, service] of Object.entries(compose.services)) {
      if (service.restart === 'no') expect(name).toBe('certs');
      else expect(service.healthcheck).toBeDefined();
    }
  });

  it('serves TLS on the instances, with certificates the certs service makes, and client certificates verified', () => {
    const certs = compose.services.certs;
    expect(certs.volumes).toEqual(expect.arrayContaining(['certs:/certs', './deploy/make-certs.sh:/make-certs.sh:ro']));
    expect(certs.environment?.CERTS_DIR).toBe('/certs');
    expect(Object.keys(compose.volumes ?? {})).toContain('certs');
    for (const [name, instance] of instances) {
      expect(instance.volumes).toContain('certs:/certs:ro');
      expect(instance.environment).toMatchObject({
        SECURE_PORT: '6443',
        TLS_CERT_FILE: '/certs/server.crt',
        TLS_PRIVATE_KEY_FILE: '/certs/server.key',
        SERVICE_ACCOUNT_SIGNING_KEY_FILE: '/certs/sa.key',
        CLIENT_CA_FILE: '/certs/ca.crt',
      });
      expect(instance.environment?.INSECURE_BIND_ADDRESS).toBeUndefined(); // the insecure port stays on loopback
      expect(certs.environment?.SERVER_NAMES).toContain(`DNS:${name}`);
    }
  });

  it("keeps the CA's key in a volume only the certs service mounts", () => {
    const certs = compose.services.certs;
    expect(certs.environment?.CA_DIR).toBe('/ca');
    expect(certs.volumes).toContain('ca:/ca');
    expect(Object.keys(compose.volumes ?? {})).toContain('ca');
    for (const [name, service] of Object.entries(compose.services)) {
      if (name !== 'certs') expect((service.volumes ?? []).filter((v) => v.startsWith('ca:'))).toEqual([]);
    }
  });

  it("writes an administrator's kubeconfig for the load balancer's published port into an ignored folder of the checkout", () => {
    const certs = compose.services.certs;
    expect(certs.environment?.ADMIN_DIR).toBe('/admin');
    expect(certs.volumes).toContain('./.compose:/admin');
    expect(read('.gitignore').split('\n')).toContain('.compose/');
    const [published] = compose.services.lb.ports as string[];
    expect(certs.environment?.KUBECONFIG_SERVER).toBe(`https://127.0.0.1:${published.split(':')[0]}`);
    expect(certs.environment?.SERVER_NAMES).toContain('IP:127.0.0.1');
  });

  (OPENSSL ? it : it.skip)("makes certificates with deploy/make-certs.sh that verify for the instances' names, once", () => {
    const dir = mkdtempSync(join(tmpdir(), 'pgkube-certs-'));
    try {
      const job = certsJob(dir, 'https://127.0.0.1:6443');
      job.run();
      const verify = (name: string) =>
        spawnSync('openssl', ['verify', '-CAfile', join(job.ca, 'ca.crt'), '-verify_hostname', name, join(job.certs, 'server.crt')], { encoding: 'utf8' });
      expect(verify('pgkube-1').stdout).toContain(': OK');
      expect(verify('elsewhere').status).not.toBe(0);
      expect(readdirSync(job.certs).sort()).toEqual(['ca.crt', 'sa.key', 'server.crt', 'server.key']); // no CA key
      expect(createPrivateKey(readFileSync(join(job.certs, 'sa.key'))).asymmetricKeyType).toBe('rsa');
      const signingKey = readFileSync(join(job.certs, 'sa.key'), 'utf8');
      expect(readdirSync(job.admin).sort()).toEqual(['admin.kubeconfig', 'ca.crt']);
      // a credential: its owner's only, and the owner is the script's (the user's checkout in compose)
      const kubeconfig = statSync(job.kubeconfig);
      expect(kubeconfig.mode & 0o777).toBe(0o600);
      expect(kubeconfig.uid).toBe(statSync(MAKE_CERTS).uid);
      const before = readFileSync(join(job.certs, 'server.crt'), 'utf8');
      const admin = readFileSync(job.kubeconfig, 'utf8');
      expect(job.run()).toContain('already');
      expect(readFileSync(join(job.certs, 'server.crt'), 'utf8')).toBe(before);
      expect(readFileSync(job.kubeconfig, 'utf8')).toBe(admin);
      expect(readFileSync(join(job.certs, 'sa.key'), 'utf8')).toBe(signingKey);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("gives the load balancer the repository's HAProxy configuration with every instance in it", () => {
    const lb = compose.services.lb;
    expect(lb.volumes).toContain('./deploy/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro');
    const config = read('deploy/haproxy.cfg');
    const servers = [...config.matchAll(/^\s*server \S+ "\$\{(\w+)\}"/gm)].map((m) => lb.environment?.[m[1]]);
    expect(servers.sort()).toEqual(instances.map(([name]) => `${name}:6443`).sort());
    expect(config).toMatch(/option httpchk GET \/readyz/);
    expect(config).toMatch(/^\s*mode tcp$/m); // TLS passed through: the instances see the clients' certificates
  });

  const haproxy = spawnSync('haproxy', ['-v']).status === 0;
  (haproxy ? it : it.skip)('has a load balancer configuration that HAProxy accepts', () => {
    const env = { ...process.env, ...compose.services.lb.environment };
    const output = execFileSync('haproxy', ['-c', '-f', join(root, 'deploy/haproxy.cfg')], { env, encoding: 'utf8', stdio: 'pipe' });
    expect(output).toContain('Configuration file is valid');
  });
});

(OPENSSL ? describe : describe.skip)("the certs service's administrator kubeconfig", () => {
  let dir: string;
  let server: TestServer;
  let kubeconfig: string;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'pgkube-compose-admin-'));
    const port = await freePort();
    const job = certsJob(dir, `https://127.0.0.1:${port}`);
    job.run();
    kubeconfig = job.kubeconfig;
    server = await startTestServer(undefined, { SECURE_PORT: String(port), ...job.instanceTls });
    const web = { metadata: { name: 'web' }, spec: { template: { metadata: { labels: { app: 'web' } }, spec: { containers: [{ name: 'c', image: 'nginx' }] } } } };
    expect((await http(server.url, 'POST', '/apis/extensions/v1beta1/namespaces/default/deployments', { body: web })).status).toBe(201);
  });

  afterAll(async () => {
    await server?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it.each(KUBECTLS)('lets kubectl $tag list deployments with it, as written', async (client: KubectlClient) => {
    const result = await kubectl(client, { kubeconfig }, ['get', 'deployments']);
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^web\s/m);
  });

  it('authenticates its holder as the administrator pgkube-admin, of the group system:masters', async () => {
    const result = await kubectl(KUBECTLS[0], { kubeconfig }, ['auth', 'whoami', '-o', 'json']);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout).status.userInfo).toMatchObject({ username: 'pgkube-admin', groups: expect.arrayContaining(['system:masters']) });
  });
});

describe('Dockerfile', () => {
  const dockerfile = read('Dockerfile');
  const stages = dockerfile.split(/^FROM /m).slice(1);

  it('builds in one stage and runs in a second, slim one as a non-root user', () => {
    expect(stages).toHaveLength(2);
    const [build, runtime] = stages;
    expect(build).toMatch(/^\S+ AS build/);
    expect(build.indexOf('npm run prisma:generate')).toBeGreaterThan(build.indexOf('npm ci'));
    expect(build.indexOf('npm run build')).toBeGreaterThan(build.indexOf('npm run prisma:generate'));
    expect(build).toMatch(/npm prune --omit=dev/);
    expect(runtime).toMatch(/^node:\S+-slim/);
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).toMatch(/COPY --from=build \/app\/dist /);
    expect(runtime).toMatch(/COPY --from=build \/app\/prisma\/migrations /);
    expect(runtime).toMatch(/^HEALTHCHECK .*\/readyz/ms);
  });
});
