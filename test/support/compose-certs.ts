import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { load } from 'js-yaml';
import { ClientTls } from './http';

const ROOT = join(__dirname, '..', '..');
export const MAKE_CERTS = join(ROOT, 'deploy', 'make-certs.sh');

type Service = { environment?: Record<string, string>; image?: string };
const services = () => (load(readFileSync(join(ROOT, 'docker-compose.yml'), 'utf8')) as { services: Record<string, Service> }).services;

/** The compose file's certs service, with its three folders (its volumes there) in a folder of the test's. */
export interface CertsJob {
  /** the `ca` volume */
  ca: string;
  /** the `certs` volume, which the instances mount */
  certs: string;
  /** the checkout's .compose folder */
  admin: string;
  /** the administrator's kubeconfig the job writes */
  kubeconfig: string;
  /** the instances' TLS and client CA settings, their `certs` volume being `certs` */
  instanceTls: Record<'TLS_CERT_FILE' | 'TLS_PRIVATE_KEY_FILE' | 'CLIENT_CA_FILE', string>;
  /** runs deploy/make-certs.sh (again) as the service does; returns its output */
  run(): string;
  /** the kubeconfig's CA and client certificate and key, for requests without kubectl */
  adminTls(): ClientTls;
}

type Kubeconfig = {
  clusters: { cluster: { 'certificate-authority-data': string } }[];
  users: { user: { 'client-certificate-data': string; 'client-key-data': string } }[];
};
const fromBase64 = (data: string) => Buffer.from(data, 'base64').toString('utf8');

/** The certs service's job in `dir`, its kubeconfig for the load balancer at `kubeconfigServer` (an https URL). */
export function certsJob(dir: string, kubeconfigServer: string): CertsJob {
  const { certs: service, ...others } = services();
  const folders = { ca: join(dir, 'ca'), certs: join(dir, 'certs'), admin: join(dir, 'admin') };
  Object.values(folders).forEach((folder) => mkdirSync(folder));
  const env = {
    ...process.env,
    ...service.environment,
    CA_DIR: folders.ca,
    CERTS_DIR: folders.certs,
    ADMIN_DIR: folders.admin,
    KUBECONFIG_SERVER: kubeconfigServer,
    SERVER_UID: String(process.getuid?.()),
  };
  const instance = Object.values(others).find((s) => s.image?.startsWith('pgkube'))?.environment ?? {};
  const inCerts = (file: string) => file.replace(new RegExp(`^${service.environment?.CERTS_DIR}/`), `${folders.certs}/`);
  const kubeconfig = join(folders.admin, 'admin.kubeconfig');
  return {
    ...folders,
    kubeconfig,
    instanceTls: {
      TLS_CERT_FILE: inCerts(instance.TLS_CERT_FILE),
      TLS_PRIVATE_KEY_FILE: inCerts(instance.TLS_PRIVATE_KEY_FILE),
      CLIENT_CA_FILE: inCerts(instance.CLIENT_CA_FILE),
    },
    run: () => execFileSync('sh', [MAKE_CERTS], { env, encoding: 'utf8', stdio: 'pipe' }),
    adminTls: () => {
      const { clusters, users } = load(readFileSync(kubeconfig, 'utf8')) as Kubeconfig;
      const { 'client-certificate-data': cert, 'client-key-data': key } = users[0].user;
      return { ca: fromBase64(clusters[0].cluster['certificate-authority-data']), cert: fromBase64(cert), key: fromBase64(key) };
    },
  };
}
