import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/** openssl on this machine (the e2e tests that make certificates with it are skipped without it). */
export const OPENSSL = (() => {
  try {
    execFileSync('openssl', ['version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
})();

const openssl = (dir: string, args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });

export interface Issued {
  cert: string;
  key: string;
}

/** A self-signed CA in `dir` as `<name>.crt` and `<name>.key`; returns their paths. */
export function makeCa(dir: string, name: string): Issued {
  openssl(dir, ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.crt`, '-days', '2', '-subj', `/CN=${name}`]);
  return { cert: join(dir, `${name}.crt`), key: join(dir, `${name}.key`) };
}

/**
 * A certificate signed by `ca` for `subject` (e.g. /CN=alice/O=admins), with `extensions` (openssl -addext) such as
 * subjectAltName=IP:127.0.0.1 or extendedKeyUsage=clientAuth.
 */
export function issue(dir: string, ca: Issued, name: string, subject: string, extensions: string[]): Issued {
  const addext = extensions.flatMap((e) => ['-addext', e]);
  openssl(dir, ['req', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:P-256', '-nodes', '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject, ...addext]);
  openssl(dir, ['x509', '-req', '-in', `${name}.csr`, '-CA', ca.cert, '-CAkey', ca.key, '-CAcreateserial', '-out', `${name}.crt`, '-days', '2', '-copy_extensions', 'copy']);
  return { cert: join(dir, `${name}.crt`), key: join(dir, `${name}.key`) };
}
