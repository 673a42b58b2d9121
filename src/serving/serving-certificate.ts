import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { generate } from 'selfsigned';

export interface ServingCertificate {
  cert: string;
  key: string;
}

const CERT_FILE = 'apiserver.crt';
const KEY_FILE = 'apiserver.key';

/** The certificate files when given; otherwise the self-signed pair kept in `certDir`, made on first use. */
export async function servingCertificate(certFile: string, keyFile: string, certDir: string): Promise<ServingCertificate> {
  if (certFile || keyFile) {
    if (!certFile || !keyFile) throw new Error('--tls-cert-file and --tls-private-key-file are given together');
    return { cert: await readFile(certFile, 'utf8'), key: await readFile(keyFile, 'utf8') };
  }
  const paths = { cert: join(certDir, CERT_FILE), key: join(certDir, KEY_FILE) };
  try {
    return { cert: await readFile(paths.cert, 'utf8'), key: await readFile(paths.key, 'utf8') };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const made = await selfSigned();
  await mkdir(certDir, { recursive: true, mode: 0o700 });
  // written beside and renamed into place, key first: a reader never finds a certificate without its key
  const suffix = `.${process.pid}.tmp`;
  await writeFile(paths.key + suffix, made.key, { mode: 0o600 });
  await writeFile(paths.cert + suffix, made.cert);
  await rename(paths.key + suffix, paths.key);
  await rename(paths.cert + suffix, paths.cert);
  return made;
}

/** A certificate for this machine's names and loopback addresses, as kube-apiserver makes when given none. */
async function selfSigned(): Promise<ServingCertificate> {
  const host = hostname();
  const made = await generate([{ name: 'commonName', value: `${host}@${Math.floor(Date.now() / 1000)}` }], {
    keyType: 'ec',
    curve: 'P-256',
    algorithm: 'sha256',
    notAfterDate: new Date(Date.now() + 365 * 24 * 3600 * 1000),
    extensions: [
      { name: 'basicConstraints', cA: false },
      { name: 'keyUsage', digitalSignature: true, keyEncipherment: true, critical: true },
      { name: 'extKeyUsage', serverAuth: true },
      {
        name: 'subjectAltName',
        altNames: [
          { type: 2, value: host },
          { type: 2, value: 'localhost' },
          { type: 7, ip: '127.0.0.1' },
          { type: 7, ip: '::1' },
        ],
      },
    ],
  });
  return { cert: made.cert, key: made.private };
}
