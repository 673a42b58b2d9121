import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, KeyObject, X509Certificate } from 'node:crypto';
import { link, mkdir, readFile, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** A key that verifies service account tokens, as the JWKS publishes it. */
export interface VerificationKey {
  key: KeyObject;
  /** upstream's key id: the unpadded base64url SHA-256 of the key's DER SubjectPublicKeyInfo */
  kid: string;
  alg: string;
}

/** The key that signs new tokens, and the keys that verify them. */
export interface ServiceAccountKeys {
  signing: { key: KeyObject; kid: string; alg: string };
  verifying: readonly VerificationKey[];
}

const DEFAULT_KEY_FILE = 'sa.key';

const EC_ALGORITHMS: Record<string, string> = { prime256v1: 'ES256', secp384r1: 'ES384', secp521r1: 'ES512' };

/** The JWS algorithm of a key, as upstream picks it: RS256 for RSA, ES256/384/512 by the EC curve. */
function algorithmOf(key: KeyObject): string {
  if (key.asymmetricKeyType === 'rsa') return 'RS256';
  const curve = key.asymmetricKeyType === 'ec' ? key.asymmetricKeyDetails?.namedCurve : undefined;
  const alg = curve && EC_ALGORITHMS[curve];
  if (!alg) throw new Error(`service account keys must be RSA or EC (P-256, P-384, P-521), not ${key.asymmetricKeyType} ${curve ?? ''}`.trim());
  return alg;
}

export function keyIdOf(publicKey: KeyObject): string {
  return createHash('sha256').update(publicKey.export({ type: 'spki', format: 'der' })).digest('base64url');
}

function verificationKey(publicKey: KeyObject): VerificationKey {
  return { key: publicKey, kid: keyIdOf(publicKey), alg: algorithmOf(publicKey) };
}

const PEM_BLOCK = /-----BEGIN ([A-Z0-9 ]+)-----[\s\S]+?-----END \1-----/g;

/** The public keys of a PEM file: of its public keys, private keys and certificates, as upstream reads key files. */
function publicKeysOfPem(pem: string, file: string): KeyObject[] {
  const keys = [...pem.matchAll(PEM_BLOCK)].map(([block, type]) => {
    if (type === 'CERTIFICATE') return new X509Certificate(block).publicKey;
    if (type.endsWith('PRIVATE KEY')) return createPublicKey(createPrivateKey(block));
    return createPublicKey(block);
  });
  if (keys.length === 0) throw new Error(`${file}: no PEM public key, private key or certificate`);
  return keys;
}

/**
 * The RSA key kept in `certDir`, made on first use. It is written beside and linked into place, so that instances
 * sharing the folder that start together all end up with the one that was linked first.
 */
async function defaultSigningKey(certDir: string): Promise<string> {
  const path = join(certDir, DEFAULT_KEY_FILE);
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  await mkdir(certDir, { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
  try {
    await link(temporary, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  } finally {
    await unlink(temporary);
  }
  return readFile(path, 'utf8');
}

export interface KeySettings {
  SERVICE_ACCOUNT_SIGNING_KEY_FILE: string;
  SERVICE_ACCOUNT_KEY_FILE: string;
  CERT_DIR: string;
}

/** The keys the settings name: `--service-account-signing-key-file` (or the kept default) and `--service-account-key-file`. */
export async function loadServiceAccountKeys(settings: KeySettings): Promise<ServiceAccountKeys> {
  const signingFile = settings.SERVICE_ACCOUNT_SIGNING_KEY_FILE;
  const signingPem = signingFile ? await readFile(signingFile, 'utf8') : await defaultSigningKey(settings.CERT_DIR);
  const key = createPrivateKey(signingPem);
  const own = verificationKey(createPublicKey(key));
  const files = settings.SERVICE_ACCOUNT_KEY_FILE.split(',').filter((file) => file !== '');
  const verifying =
    files.length === 0 ? [own] : (await Promise.all(files.map(async (file) => publicKeysOfPem(await readFile(file, 'utf8'), file)))).flat().map(verificationKey);
  return { signing: { ...own, key }, verifying };
}
