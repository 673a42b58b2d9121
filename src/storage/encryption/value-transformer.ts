import { KeyedCipher } from './providers';

/** A stored text that no provider of the configuration reads, or whose ciphertext does not open. */
export class UnreadableValue extends Error {}

/** The identity provider: objects stored as they are. */
export const IDENTITY = 'identity';

/** One provider key of a resource's providers, in the configuration's order; identity stores objects in the clear. */
export type ValueProvider = KeyedCipher | typeof IDENTITY;

/** The prefix of a stored text, up to its key name: `k8s:enc:<provider>:v1:<key>:`. */
const prefixOf = (stored: string) => stored.slice(0, stored.indexOf(':', stored.indexOf(':v1:') + 4) + 1);

/**
 * The providers of one resource, as upstream's prefix transformer uses them: the first writes; every one reads what
 * carries its prefix (identity: what was stored in the clear). What is read by any but the first is stale: an update
 * rewrites it even when nothing else changed, which is how keys are rotated.
 */
export class ValueTransformer {
  constructor(readonly providers: readonly ValueProvider[]) {}

  /** Whether objects are written in the clear (identity first). */
  get writesPlain(): boolean {
    return this.providers[0] === IDENTITY;
  }

  /** The text to store for `plain`: the bytes sealed by the first provider (not identity), after its prefix, in base64. */
  seal(plain: Buffer, context: string): string {
    const writer = this.providers[0];
    if (writer === IDENTITY) throw new Error('identity stores objects in the clear: there is nothing to seal');
    return writer.prefix + writer.seal(plain, context).toString('base64');
  }

  /** The plaintext a stored text stands for, and whether it was read by another provider than the first. */
  open(stored: string, context: string): { plain: Buffer; stale: boolean } {
    const index = this.providers.findIndex((provider) => provider !== IDENTITY && stored.startsWith(provider.prefix));
    if (index < 0) throw new UnreadableValue(`no key of the encryption configuration reads the prefix "${prefixOf(stored)}"`);
    const provider = this.providers[index] as KeyedCipher;
    let opened: Buffer;
    try {
      opened = provider.open(Buffer.from(stored.slice(provider.prefix.length), 'base64'), context);
    } catch (error) {
      throw new UnreadableValue(`${provider.prefix.slice(0, -1)} could not decrypt it (${(error as Error).message})`);
    }
    return { plain: opened, stale: index !== 0 };
  }

  /** Whether an object stored in the clear is stale (identity reads it, but another provider writes). */
  clearIsStale(): boolean {
    const index = this.providers.indexOf(IDENTITY);
    if (index < 0) throw new UnreadableValue('it is stored unencrypted and the encryption configuration has no identity provider to read it');
    return index !== 0;
  }
}
