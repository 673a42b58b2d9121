import { KeyedCipher } from './providers';

/** What every provider but identity puts before its ciphertext. */
export const ENCRYPTED = 'k8s:enc:';

/** A stored value that no provider of the configuration reads, or whose ciphertext does not open. */
export class UnreadableValue extends Error {}

/** The identity provider: values stored as they are. */
export const IDENTITY = 'identity';

/** One provider key of a resource's providers, in the configuration's order; identity stores values in the clear. */
export type ValueProvider = KeyedCipher | typeof IDENTITY;

/**
 * The providers of one resource, as upstream's prefix transformer uses them: the first writes; every one reads what
 * carries its prefix (identity: what carries no `k8s:enc:` prefix). A value read by any but the first is stale: an
 * update rewrites it even when nothing else changed, which is how keys are rotated.
 */
export class ValueTransformer {
  constructor(readonly providers: readonly ValueProvider[]) {}

  /** Whether values are written in the clear (identity first). */
  get writesPlain(): boolean {
    return this.providers[0] === IDENTITY;
  }

  /**
   * The value to store, as text: the bytes `value` stands for in `encoding` (its UTF-8, or the bytes of base64 text)
   * sealed by the first provider, after its prefix, in base64.
   */
  seal(value: string, encoding: BufferEncoding, context: string): string {
    const writer = this.providers[0];
    if (writer === IDENTITY) return value;
    return writer.prefix + writer.seal(Buffer.from(value, encoding), context).toString('base64');
  }

  /** The value a stored text stands for (in `encoding`), and whether it was read by another provider than the first. */
  open(stored: string, encoding: BufferEncoding, context: string): { value: string; stale: boolean } {
    const index = stored.startsWith(ENCRYPTED)
      ? this.providers.findIndex((provider) => provider !== IDENTITY && stored.startsWith(provider.prefix))
      : this.providers.indexOf(IDENTITY);
    if (index < 0) {
      throw new UnreadableValue(
        stored.startsWith(ENCRYPTED)
          ? `no key of the encryption configuration reads the prefix "${stored.slice(0, stored.indexOf(':', stored.indexOf(':v1:') + 4) + 1)}"`
          : 'it is stored unencrypted and the encryption configuration has no identity provider to read it',
      );
    }
    const provider = this.providers[index];
    if (provider === IDENTITY) return { value: stored, stale: index !== 0 };
    let opened: Buffer;
    try {
      opened = provider.open(Buffer.from(stored.slice(provider.prefix.length), 'base64'), context);
    } catch (error) {
      throw new UnreadableValue(`${provider.prefix.slice(0, -1)} could not decrypt it (${(error as Error).message})`);
    }
    return { value: opened.toString(encoding), stale: index !== 0 };
  }
}
