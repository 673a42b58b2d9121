import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parsePolicy } from '../../src/auth/audit/audit-policy';
import { BatchBuffer } from '../../src/auth/audit/batch-buffer';
import { LogFileSink } from '../../src/auth/audit/log-file.sink';
import { csvFields, readTokenFile } from '../../src/auth/authenticators/token-file.authenticator';
import { RequestInfo } from '../../src/apiserver/request/request-info';

const info = (fields: Partial<RequestInfo>): RequestInfo => ({
  verb: 'GET',
  apiVerb: 'get',
  path: '/apis/extensions/v1beta1/namespaces/default/deployments/web',
  group: 'extensions',
  version: 'v1beta1',
  resource: 'deployments',
  subresource: '',
  namespace: 'default',
  name: 'web',
  scope: 'resource',
  api: true,
  served: true,
  mutating: false,
  longRunning: false,
  ...fields,
});
const alice = { username: 'alice', groups: ['dev', 'system:authenticated'] };

describe('an audit policy', () => {
  const policy = parsePolicy(
    `
apiVersion: audit.k8s.io/v1
kind: Policy
omitStages: [RequestReceived]
rules:
  - level: None
    users: [system:kube-proxy]
  - level: None
    nonResourceURLs: ["/healthz*", /version]
  - level: RequestResponse
    resources: [{group: extensions, resources: ["deployments/scale"]}]
  - level: Request
    verbs: [delete]
    namespaces: [prod]
    omitStages: [ResponseComplete]
  - level: Metadata
    userGroups: [dev]
    resources: [{group: extensions, resources: ["*/status", "replicasets"], resourceNames: [important]}]
  - level: Metadata
    resources: [{group: extensions}]
`,
    'policy.yaml',
  );

  it.each([
    ['a user of a None rule', { username: 'system:kube-proxy', groups: [] }, info({}), 'None'],
    ['a health path (prefix)', alice, info({ resource: '', path: '/healthz/ping' }), 'None'],
    ['an exact non-resource path', alice, info({ resource: '', path: '/version' }), 'None'],
    ['a path no rule names', alice, info({ resource: '', path: '/metrics' }), 'None'],
    ['a subresource', alice, info({ subresource: 'scale' }), 'RequestResponse'],
    ['a verb in a namespace', alice, info({ apiVerb: 'delete', namespace: 'prod' }), 'Request'],
    ['the same verb elsewhere', alice, info({ apiVerb: 'delete' }), 'Metadata'],
    ['a */status of a named object', alice, info({ resource: 'replicasets', subresource: 'status', name: 'important' }), 'Metadata'],
    ['a resource of another group', alice, info({ group: 'federation', resource: 'clusters' }), 'None'],
  ])('gives %s its level', (_title, user, request, level) => {
    expect(policy.decide(user, request).level).toBe(level);
  });

  it("omits the policy's stages and the rule's", () => {
    expect([...policy.decide(alice, info({ apiVerb: 'delete', namespace: 'prod' })).omitStages].sort()).toEqual([
      'RequestReceived',
      'ResponseComplete',
    ]);
  });

  it.each([
    ['kind: Policy\napiVersion: v1\nrules: [{level: None}]', /expected kind Policy of audit.k8s.io\/v1/],
    ['kind: Policy\napiVersion: audit.k8s.io/v1\nrules: [{level: Everything}]', /rules\[0\]\.level must be one of None, Metadata/],
    ['kind: Policy\napiVersion: audit.k8s.io/v1\nrules: [{level: None, omitStages: [Later]}]', /unknown stage "Later"/],
    ['kind: Policy\napiVersion: audit.k8s.io/v1\nrules: []', /at least one rule/],
  ])('refuses a bad policy %#', (text, message) => {
    expect(() => parsePolicy(text, 'p.yaml')).toThrow(message);
  });
});

describe('the audit buffer', () => {
  it('drops and counts what does not fit while a write is slow, and writes the rest in batches', async () => {
    const written: number[][] = [];
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    let dropped = 0;
    const buffer = new BatchBuffer<number>('test', 3, { maxSize: 2, maxWaitMs: 50 }, async (batch) => {
      written.push(batch);
      await gate;
    }, (count) => (dropped += count));
    buffer.push(1);
    await new Promise((resolve) => setTimeout(resolve, 80)); // the first write has started and waits
    for (const n of [2, 3, 4, 5, 6]) buffer.push(n);
    expect(dropped).toBe(2);
    release();
    await buffer.flush();
    expect(written).toEqual([[1], [2, 3], [4]]);
  });

  it('writes a full batch at once and what is left when its first event has waited long enough', async () => {
    const written: number[][] = [];
    const buffer = new BatchBuffer<number>('test', 10, { maxSize: 3, maxWaitMs: 200 }, async (batch) => {
      written.push(batch);
    }, () => undefined);
    for (const n of [1, 2, 3, 4]) buffer.push(n);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(written).toEqual([[1, 2, 3]]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(written).toEqual([[1, 2, 3], [4]]);
  });

  it('writes at once when the buffer is full even if a batch could hold more', async () => {
    const written: number[][] = [];
    const buffer = new BatchBuffer<number>('test', 2, { maxSize: 5, maxWaitMs: 10_000 }, async (batch) => {
      written.push(batch);
    }, () => undefined);
    buffer.push(1);
    buffer.push(2);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(written).toEqual([[1, 2]]);
  });

  it('counts the events of a failed write as dropped', async () => {
    let dropped = 0;
    const buffer = new BatchBuffer<number>('test', 10, { maxSize: 10, maxWaitMs: 50 }, async () => Promise.reject(new Error('disk full')), (count) => (dropped += count));
    buffer.push(1);
    buffer.push(2);
    await buffer.flush();
    expect(dropped).toBe(2);
  });
});

describe('the audit log file', () => {
  it('rotates past its size and keeps the newest backups only', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pgkube-audit-'));
    try {
      const sink = new LogFileSink(join(dir, 'audit.log'), { maxSizeMb: 0.0001, maxBackups: 2, maxAgeDays: 0 });
      for (let i = 0; i < 5; i++) {
        await sink.write([{ json: JSON.stringify({ n: i, padding: 'x'.repeat(120) }) }]);
        await new Promise((resolve) => setTimeout(resolve, 5)); // distinct timestamps in the rotated names
      }
      await sink.close();
      const files = readdirSync(dir).sort();
      expect(files.filter((f) => /^audit-\d{4}-\d\d-\d\dT.*\.log$/.test(f))).toHaveLength(2);
      const newestBackup = files.filter((f) => f !== 'audit.log').pop() as string;
      expect(JSON.parse(readFileSync(join(dir, newestBackup), 'utf8')).n).toBe(4);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the token file', () => {
  it('reads token, user, uid and quoted groups', () => {
    expect(csvFields('t,u,1,"a,b","say ""hi"""')).toEqual(['t', 'u', '1', 'a,b', 'say "hi"']);
    const dir = mkdtempSync(join(tmpdir(), 'pgkube-tokens-'));
    try {
      writeFileSync(join(dir, 'tokens.csv'), 'secret,bob,1001,"dev,ops"\n\nother,erin,\n');
      expect([...readTokenFile(join(dir, 'tokens.csv'))]).toEqual([
        ['secret', { username: 'bob', uid: '1001', groups: ['dev', 'ops'] }],
        ['other', { username: 'erin', groups: [] }],
      ]);
      writeFileSync(join(dir, 'bad.csv'), 'lonely\n');
      expect(() => readTokenFile(join(dir, 'bad.csv'))).toThrow(/line 1: a token line has at least token, user name and uid/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
