import { dump } from 'js-yaml';
import { serverAddressFor, serverUrl } from '../../src/controllers/cluster/cluster-address';
import { conditionsAfter } from '../../src/controllers/cluster/cluster-conditions';
import { credentialsFromKubeconfig, credentialsFromSecret } from '../../src/controllers/cluster/cluster-credentials';

const base64 = (text: string) => Buffer.from(text).toString('base64');

describe("the cluster controller's choice of address", () => {
  const entries = [
    { clientCIDR: '10.0.0.0/8', serverAddress: 'https://internal:6443' },
    { clientCIDR: '0.0.0.0/0', serverAddress: 'https://public:6443' },
  ];

  it('takes the first entry whose client CIDR holds this server', () => {
    expect(serverAddressFor(entries, '10.1.2.3')).toBe('https://internal:6443');
    expect(serverAddressFor(entries, '192.0.2.2')).toBe('https://public:6443');
    expect(() => serverAddressFor(entries.slice(0, 1), '192.0.2.2')).toThrow("no serverAddressByClientCIDRs entry's clientCIDR holds this server's address 192.0.2.2");
    expect(() => serverAddressFor([{ clientCIDR: '10.0.0.0', serverAddress: 'x' }], '10.0.0.1')).toThrow('invalid clientCIDR "10.0.0.0"');
  });

  it('defaults the scheme as client-go: https with TLS configured, http without', () => {
    expect(serverUrl('10.0.0.1:6443', { ca: 'pem' }).href).toBe('https://10.0.0.1:6443/');
    expect(serverUrl('10.0.0.1:8080', {}).href).toBe('http://10.0.0.1:8080/');
    expect(serverUrl('https://10.0.0.1', {}).href).toBe('https://10.0.0.1/');
  });
});

describe("the cluster controller's credentials", () => {
  it("takes a service account's token and ca.crt, both or neither", () => {
    expect(credentialsFromSecret({ token: base64('t'), 'ca.crt': base64('pem') })).toEqual({ ca: 'pem', authorization: 'Bearer t' });
    expect(() => credentialsFromSecret({ token: base64('t') })).toThrow("either both 'ca.crt' and 'token'");
  });

  it("takes a kubeconfig's current context: the cluster's CA and the user's token, client certificate or basic credentials", () => {
    const config = (user: Record<string, unknown>, cluster: Record<string, unknown> = { 'certificate-authority-data': base64('ca') }) =>
      dump({
        clusters: [{ name: 'other', cluster: {} }, { name: 'c', cluster }],
        users: [{ name: 'u', user }],
        contexts: [{ name: 'x', context: { cluster: 'other' } }, { name: 'ctx', context: { cluster: 'c', user: 'u' } }],
        'current-context': 'ctx',
      });
    expect(credentialsFromSecret({ kubeconfig: base64(config({ token: 't' })) })).toEqual(expect.objectContaining({ ca: 'ca', authorization: 'Bearer t', insecureSkipTlsVerify: false }));
    expect(credentialsFromKubeconfig(config({ 'client-certificate-data': base64('cert'), 'client-key-data': base64('key') }))).toEqual(
      expect.objectContaining({ ca: 'ca', cert: 'cert', key: 'key', authorization: undefined }),
    );
    expect(credentialsFromKubeconfig(config({ username: 'a', password: 'b' })).authorization).toBe(`Basic ${base64('a:b')}`);
    expect(credentialsFromKubeconfig(config({}, { 'insecure-skip-tls-verify': true, 'tls-server-name': 'api' }))).toEqual(
      expect.objectContaining({ insecureSkipTlsVerify: true, serverName: 'api' }),
    );
    expect(() => credentialsFromKubeconfig(config({ tokenFile: '/var/run/token' }))).toThrow('the kubeconfig uses tokenFile');
    expect(() => credentialsFromKubeconfig('clusters: [')).toThrow('the kubeconfig is not YAML');
    expect(() => credentialsFromKubeconfig(dump({ contexts: [] }))).toThrow('the kubeconfig has no current-context');
    expect(() => credentialsFromKubeconfig(dump({ 'current-context': 'gone' }))).toThrow('the kubeconfig has no context "gone"');
  });
});

describe("the cluster controller's conditions", () => {
  it('sets Ready alone when healthy, Ready and Offline False when /healthz says something else, Offline alone when unreachable', () => {
    const types = (outcome: Parameters<typeof conditionsAfter>[0]) => conditionsAfter(outcome).map((c) => [c.type, c.status, c.reason, c.message]);
    expect(types({ kind: 'healthy' })).toEqual([['Ready', 'True', 'ClusterReady', '/healthz responded with ok']]);
    expect(types({ kind: 'unhealthy' })).toEqual([
      ['Ready', 'False', 'ClusterNotReady', '/healthz responded without ok'],
      ['Offline', 'False', 'ClusterReachable', 'cluster is reachable'],
    ]);
    expect(types({ kind: 'unreachable' })).toEqual([['Offline', 'True', 'ClusterNotReachable', 'cluster is not reachable']]);
  });

  it('keeps the transition times while the types and statuses stay, and moves them all when one changes', () => {
    const before = [{ type: 'Ready', status: 'True', lastProbeTime: '2020-01-01T00:00:00Z', lastTransitionTime: '2019-01-01T00:00:00Z' }];
    const [same] = conditionsAfter({ kind: 'healthy' }, before);
    expect(same.lastTransitionTime).toBe('2019-01-01T00:00:00Z');
    expect(same.lastProbeTime).not.toBe('2020-01-01T00:00:00Z');
    const changed = conditionsAfter({ kind: 'unhealthy' }, before);
    expect(changed.map((c) => c.lastTransitionTime)).toEqual([same.lastProbeTime, same.lastProbeTime]);
  });
});
