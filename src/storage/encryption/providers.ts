import { CipherGCMTypes, createCipheriv, createDecipheriv, createSecretKey, randomBytes } from 'node:crypto';
import nacl from 'tweetnacl';

/**
 * One key of one provider of an EncryptionConfiguration: what it prefixes its ciphertext with
 * (`k8s:enc:<provider>:v1:<key name>:`), and how it seals and opens a plaintext's bytes. `context` names the object
 * it is stored with: providers that authenticate additional data (aesgcm) bind the ciphertext to it, as upstream binds
 * it to the etcd key, so that a ciphertext copied to another object does not open.
 */
export interface KeyedCipher {
  prefix: string;
  seal(plain: Buffer, context: string): Buffer;
  open(sealed: Buffer, context: string): Buffer;
}

/** The providers that take keys, with the key sizes (bytes) upstream accepts for each. */
export const KEY_SIZES = { aesgcm: [16, 24, 32], aescbc: [16, 24, 32], secretbox: [32] } as const;

export type KeyedProvider = keyof typeof KEY_SIZES;

const GCM_NONCE = 12;
const GCM_TAG = 16;

/** AES-GCM: a random 12-byte nonce, then the ciphertext and its 16-byte tag, the storage context as additional data. */
function aesGcm(key: Buffer): Omit<KeyedCipher, 'prefix'> {
  const algorithm = `aes-${key.length * 8}-gcm` as CipherGCMTypes;
  const secret = createSecretKey(key); // imported once, not from the bytes on every read
  return {
    seal(plain, context) {
      const nonce = randomBytes(GCM_NONCE);
      const cipher = createCipheriv(algorithm, secret, nonce);
      cipher.setAAD(Buffer.from(context));
      return Buffer.concat([nonce, cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
    },
    open(sealed, context) {
      if (sealed.length < GCM_NONCE + GCM_TAG) throw new Error('the ciphertext is too short');
      const decipher = createDecipheriv(algorithm, secret, sealed.subarray(0, GCM_NONCE));
      decipher.setAAD(Buffer.from(context));
      decipher.setAuthTag(sealed.subarray(sealed.length - GCM_TAG));
      const plain = decipher.update(sealed.subarray(GCM_NONCE, sealed.length - GCM_TAG));
      decipher.final(); // checks the tag; GCM has nothing left to give
      return plain;
    },
  };
}

const CBC_BLOCK = 16;

/** AES-CBC with PKCS#7 padding after a random 16-byte IV (unauthenticated, as upstream's aescbc). */
function aesCbc(key: Buffer): Omit<KeyedCipher, 'prefix'> {
  const algorithm = `aes-${key.length * 8}-cbc`;
  const secret = createSecretKey(key);
  return {
    seal(plain) {
      const iv = randomBytes(CBC_BLOCK);
      const cipher = createCipheriv(algorithm, secret, iv);
      return Buffer.concat([iv, cipher.update(plain), cipher.final()]);
    },
    open(sealed) {
      if (sealed.length < 2 * CBC_BLOCK || sealed.length % CBC_BLOCK !== 0) throw new Error('the ciphertext is not a whole number of blocks');
      const decipher = createDecipheriv(algorithm, secret, sealed.subarray(0, CBC_BLOCK));
      return Buffer.concat([decipher.update(sealed.subarray(CBC_BLOCK)), decipher.final()]);
    },
  };
}

/** NaCl's secretbox (XSalsa20-Poly1305) after a random 24-byte nonce. */
function secretbox(key: Buffer): Omit<KeyedCipher, 'prefix'> {
  const box = new Uint8Array(key);
  return {
    seal(plain) {
      const nonce = randomBytes(nacl.secretbox.nonceLength);
      return Buffer.concat([nonce, nacl.secretbox(plain, nonce, box)]);
    },
    open(sealed) {
      const nonce = sealed.subarray(0, nacl.secretbox.nonceLength);
      const opened = nacl.secretbox.open(sealed.subarray(nacl.secretbox.nonceLength), nonce, box);
      if (!opened) throw new Error('message authentication failed');
      return Buffer.from(opened);
    },
  };
}

const CIPHERS: Record<KeyedProvider, (key: Buffer) => Omit<KeyedCipher, 'prefix'>> = { aesgcm: aesGcm, aescbc: aesCbc, secretbox };

/** The cipher of one named key of a provider. */
export const keyedCipher = (provider: KeyedProvider, name: string, key: Buffer): KeyedCipher => ({
  prefix: `k8s:enc:${provider}:v1:${name}:`,
  ...CIPHERS[provider](key),
});
