import { randomBytes } from 'node:crypto';
import { parseEncryptionConfiguration, readEncryptionConfiguration } from '../../src/storage/encryption/encryption-configuration';
import { KEY_SIZES, keyedCipher } from '../../src/storage/encryption/providers';
import { IDENTITY, ValueTransformer } from '../../src/storage/encryption/value-transformer';
import { OpenedValues } from '../../src/storage/encryption/opened-values';
import { packMembers, unpackTexts } from '../../src/storage/encryption/sealed-texts';
import { sealedMemberRange, splicedText, valueRange } from '../../src/storage/encryption/output-ranges';

const LAST_APPLIED = 'kubectl.kubernetes.io/last-applied-configuration';

const newKey = (bytes = 32) => randomBytes(bytes).toString('base64');
const keyed = (provider: string, ...keys: [string, string][]) => ({ [provider]: { keys: keys.map(([name, secret]) => ({ name, secret })) } });
const config = (providers: unknown[], resources: unknown[] = ['secrets']) =>
  JSON.stringify({ apiVersion: 'apiserver.config.k8s.io/v1', kind: 'EncryptionConfiguration', resources: [{ resources, providers }] });
const parse = (text: string) => parseEncryptionConfiguration(text, 'config.yaml');

describe('providers', () => {
  it.each(Object.entries(KEY_SIZES))('%s seals with a fresh nonce and opens what it sealed, with every key size upstream accepts', (provider, sizes) => {
    for (const size of sizes) {
      const cipher = keyedCipher(provider as keyof typeof KEY_SIZES, 'k', randomBytes(size));
      expect(cipher.prefix).toBe(`k8s:enc:${provider}:v1:k:`);
      const plain = Buffer.from('a value, with ünïcode');
      const [one, two] = [cipher.seal(plain, 'ctx'), cipher.seal(plain, 'ctx')];
      expect(one.equals(two)).toBe(false);
      expect(one.includes(plain)).toBe(false);
      expect(cipher.open(one, 'ctx').equals(plain)).toBe(true);
      const flipped = Buffer.from(one);
      flipped[flipped.length - 1] ^= 1;
      if (provider !== 'aescbc') expect(() => cipher.open(flipped, 'ctx')).toThrow();
    }
  });

  it('binds aesgcm ciphertext to its context', () => {
    const cipher = keyedCipher('aesgcm', 'k', randomBytes(32));
    expect(() => cipher.open(cipher.seal(Buffer.from('x'), 'secrets/a'), 'secrets/b')).toThrow();
  });
});

describe('ValueTransformer', () => {
  const key1 = keyedCipher('aesgcm', 'key1', randomBytes(32));
  const key2 = keyedCipher('secretbox', 'key2', randomBytes(32));

  it('writes with the first provider and reads with every one, reporting reads by others as stale', () => {
    const plain = Buffer.from('v');
    const old = new ValueTransformer([key1]).seal(plain, 'c');
    const rotated = new ValueTransformer([key2, key1, IDENTITY]);
    const sealed = rotated.seal(plain, 'c');
    expect(sealed.startsWith('k8s:enc:secretbox:v1:key2:')).toBe(true);
    expect(rotated.open(sealed, 'c')).toEqual({ plain, stale: false });
    expect(rotated.open(old, 'c')).toEqual({ plain, stale: true });
    expect(rotated.clearIsStale()).toBe(true);
    expect(new ValueTransformer([IDENTITY, key1]).clearIsStale()).toBe(false);
  });

  it('refuses what was stored in the clear without identity, and ciphertext of a key it does not have', () => {
    expect(() => new ValueTransformer([key1]).clearIsStale()).toThrow('no identity provider');
    expect(() => new ValueTransformer([key1, IDENTITY]).open(new ValueTransformer([key2]).seal(Buffer.from('v'), 'c'), 'c')).toThrow(
      'no key of the encryption configuration reads the prefix "k8s:enc:secretbox:v1:key2:"',
    );
  });
});

describe('sealed texts', () => {
  const textsOf = (members: Record<string, unknown>) => Object.fromEntries(Object.entries(members).map(([name, value]) => [name, JSON.stringify(value)]));

  it('packs an object\'s values into one plaintext and takes out each member\'s JSON text again', () => {
    const members = {
      data: { a: 'line\n{"x": 1}', 'b.c': 'ünïcode 🙂', 'not-canonical': 'QQ', '"quoted"': 'QUJD' },
      binaryData: { bin: randomBytes(100).toString('base64'), empty: '' },
      [LAST_APPLIED]: '{"data":{}}\n',
    };
    expect(unpackTexts(packMembers(members))).toEqual(textsOf(members));
    expect(unpackTexts(packMembers({ data: {} }))).toEqual({ data: '{}' });
    expect(unpackTexts(packMembers({}))).toEqual({});
  });

  it('packs a map of base64 values as the bytes they stand for', () => {
    const values = { one: randomBytes(1536).toString('base64'), two: randomBytes(1535).toString('base64') };
    const plain = packMembers({ data: values });
    expect(plain.length).toBeLessThan(1536 + 1535 + 50);
    expect(unpackTexts(plain)).toEqual(textsOf({ data: values }));
  });

  it('reads the first format, a line of text lengths then the texts', () => {
    const texts = { data: JSON.stringify({ a: 'ünïcode' }), [LAST_APPLIED]: JSON.stringify('{}') };
    const lengths = Object.fromEntries(Object.entries(texts).map(([name, text]) => [name, text.length]));
    expect(unpackTexts(Buffer.from(`${JSON.stringify(lengths)}\n${Object.values(texts).join('')}`))).toEqual(texts);
  });

  it.each(['\u0007garbage', '[["data", 5]]\n{}', '[["data", ["a", 1, "b"]]]\nQ', '[["data", 1]]\n{}', '[1]\n', '{"data"'])('refuses what is not sealed values (%j)', (text) => {
    expect(() => unpackTexts(Buffer.from(text))).toThrow('what it decrypts to is not sealed values');
  });
});

describe('output ranges', () => {
  const rest = '{"data": {"a": "", "b.c": ""}, "type": "x\\"data\\": {", "$sealed": "k8s:enc:aesgcm:v1:k:QUJD", "immutable": true}';

  it('cuts the sealed member out with its separator, and splices values into their placeholders', () => {
    const sealed = sealedMemberRange(rest, '$sealed')!;
    expect(sealed.stored).toBe('k8s:enc:aesgcm:v1:k:QUJD');
    const data = valueRange(rest, undefined, 'data', '{"a":"1","b.c":"2"}')!;
    expect(JSON.parse(splicedText(rest, [data, sealed]))).toEqual({ data: { a: '1', 'b.c': '2' }, type: 'x"data": {', immutable: true });
    const first = '{"$sealed": "k8s:enc:aesgcm:v1:k:QUJD", "binaryData": {}}';
    expect(splicedText(first, [sealedMemberRange(first, '$sealed')!])).toBe('{"binaryData": {}}');
    expect(splicedText('{"$sealed": "s"}', [sealedMemberRange('{"$sealed": "s"}', '$sealed')!])).toBe('{}');
  });

  it('finds a placeholder string within a member, and nothing where there is none', () => {
    const metadata = `{"name": "x", "labels": {"${LAST_APPLIED}": ""}, "annotations": {"a": "", "${LAST_APPLIED}": ""}}`;
    const range = valueRange(metadata, 'annotations', LAST_APPLIED, '"{}"')!;
    expect(JSON.parse(splicedText(metadata, [range]))).toEqual({ name: 'x', labels: { [LAST_APPLIED]: '' }, annotations: { a: '', [LAST_APPLIED]: '{}' } });
    expect(valueRange('{"name": "x"}', 'annotations', LAST_APPLIED, '""')).toBeUndefined();
    expect(valueRange('{"data": "not a map"}', undefined, 'data', '{}')).toBeUndefined();
    expect(sealedMemberRange('{"data": {}}', '$sealed')).toBeUndefined();
  });
});

describe('EncryptionConfiguration', () => {
  it('reads YAML and JSON, one chain per resource', () => {
    const yaml = `apiVersion: apiserver.config.k8s.io/v1
kind: EncryptionConfiguration
resources:
  - resources: [secrets]
    providers:
      - aescbc:
          keys:
            - name: key1
              secret: ${newKey()}
      - identity: {}
  - resources: [configmaps]
    providers: [{ identity: {} }]
`;
    const transformers = parse(yaml);
    expect([...transformers.keys()]).toEqual(['secrets', 'configmaps']);
    expect(transformers.get('secrets')!.providers).toHaveLength(2);
    expect(transformers.get('configmaps')!.writesPlain).toBe(true);
    expect(parse(config([keyed('aesgcm', ['a', newKey(16)], ['b', newKey(24)])])).get('secrets')!.providers).toHaveLength(2);
  });

  it('is empty without a file: nothing is encrypted', () => {
    expect(readEncryptionConfiguration('').size).toBe(0);
  });

  it.each([
    [config([keyed('aesgcm', ['key1', newKey(20)])]), 'resources[0].providers[0].aesgcm.keys[0].secret: Invalid value: "REDACTED": secret is not of the expected length, got 20, expected one of [16 24 32]'],
    [config([keyed('secretbox', ['key1', newKey(16)])]), 'secret is not of the expected length, got 16, expected one of [32]'],
    [config([keyed('aesgcm', ['key1', 'not base64!'])]), 'keys[0].secret: Invalid value: "REDACTED": secret is not a valid base64 string'],
    [config([keyed('aesgcm', ['key1', newKey()], ['key1', newKey()])]), 'keys[1].name: Duplicate value: "key1"'],
    [config([keyed('aesgcm', ['', newKey()])]), 'keys[0].name: Required value'],
    [config([{ aesgcm: { keys: [] } }]), 'resources[0].providers[0].aesgcm.keys: Required value'],
    [config([{ kms: { name: 'vault' } }]), 'resources[0].providers[0]: Unsupported value: "kms"'],
    [config([{ identity: {}, aesgcm: {} }]), 'more than one provider specified in a single element, should split into different list elements'],
    [config([]), 'resources[0].providers: Required value'],
    [config([{ identity: {} }], ['secrets', 'deployments.apps']), 'resources[0].resources[1]: Unsupported value: "deployments.apps"'],
    [config([{ identity: {} }], ['*.*']), 'resources[0].resources[0]: Unsupported value: "*.*"'],
    [config([{ identity: {} }], []), 'resources[0].resources: Required value'],
    [
      JSON.stringify({ apiVersion: 'apiserver.config.k8s.io/v1', kind: 'EncryptionConfiguration', resources: [{ resources: ['secrets'], providers: [{ identity: {} }] }, { resources: ['secrets'], providers: [{ identity: {} }] }] }),
      'resources[1].resources[0]: Duplicate value: "secrets"',
    ],
    ['apiVersion: audit.k8s.io/v1\nkind: Policy\n', 'expected kind EncryptionConfiguration of apiserver.config.k8s.io/v1, got Policy of audit.k8s.io/v1'],
    ['resources: [', 'not YAML or JSON'],
  ])('refuses a bad configuration with a message naming the field (%#)', (text, message) => {
    expect(() => parse(text)).toThrow(/^config\.yaml: /);
    expect(() => parse(text)).toThrow(message);
  });

  it('names a file it cannot read', () => {
    expect(() => readEncryptionConfiguration('/nonexistent/config.yaml')).toThrow('--encryption-provider-config: cannot read /nonexistent/config.yaml');
  });
});

describe('OpenedValues', () => {
  const texts = (text: string) => ({ data: text });

  it('knows an object\'s values only for the stored text they were opened from, keeps what is used and drops what is not', () => {
    const values = new OpenedValues(40); // a generation is full beyond 20 characters: two entries of 14
    values.written('a', 'sealed-1', texts('one'));
    expect(values.get('a', 'sealed-1')?.data).toBe('one');
    expect(values.get('a', 'sealed-2')).toBeUndefined();
    values.written('b', 'sealed-2', texts('two'));
    values.written('c', 'sealed-3', texts('six')); // a new generation: a and b are the older one
    expect(values.get('a', 'sealed-1')?.data).toBe('one'); // used: back in the newer generation
    values.written('d', 'sealed-4', texts('ten')); // and another: b goes
    expect(values.get('b', 'sealed-2')).toBeUndefined();
    expect(values.get('a', 'sealed-1')?.data).toBe('one');
    expect(values.get('d', 'sealed-4')?.data).toBe('ten');
  });

  it('remembers what was read only from its second read on', () => {
    const values = new OpenedValues(1000);
    values.read('a', 'sealed-1', texts('one'));
    expect(values.get('a', 'sealed-1')).toBeUndefined();
    values.read('a', 'sealed-1', texts('one'));
    expect(values.get('a', 'sealed-1')?.data).toBe('one');
  });

  it('tells long stored texts apart by their length, beginning and end', () => {
    const values = new OpenedValues(10_000);
    const stored = `k8s:enc:aesgcm:v1:key1:${'A'.repeat(300)}`;
    values.written('a', stored, texts('one'));
    expect(values.get('a', stored)?.data).toBe('one');
    expect(values.get('a', `${stored.slice(0, -1)}B`)).toBeUndefined();
    expect(values.get('a', `${stored}A`)).toBeUndefined();
    expect(values.get('a', `k8s:enc:aesgcm:v1:key1:B${'A'.repeat(299)}`)).toBeUndefined();
  });
});
