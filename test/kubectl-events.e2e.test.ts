import { useTestServer } from './support/api';
import { kubectl, KUBECTLS, startKubectl } from './support/kubectl';

// kubectl get events / kubectl events / kubectl get leases, with the kubectl on the PATH and with kubectl 1.20.

const { call, server } = useTestServer();

const cells = (line: string) => line.trim().split(/\s{2,}/);

const eventYaml = (name: string, object: string) => `apiVersion: v1
kind: Event
metadata:
  name: ${name}
involvedObject:
  kind: Pod
  namespace: default
  name: ${object}
  fieldPath: spec.containers{web}
reason: BackOff
message: Back-off restarting failed container
source:
  component: kubelet
  host: node-1
firstTimestamp: "2026-01-01T00:00:00Z"
lastTimestamp: "2026-01-01T00:00:00Z"
count: 4
type: Warning
`;

const leaseYaml = (name: string) => `apiVersion: coordination.k8s.io/v1
kind: Lease
metadata:
  name: ${name}
spec:
  holderIdentity: candidate-1
  leaseDurationSeconds: 15
`;

describe.each(KUBECTLS)('kubectl $tag', (client) => {
  const run = (args: string[], input?: string) => kubectl(client, server().url, args, input);
  const name = `crash-${client.tag}`;

  it('creates an event from a manifest and gets it with upstream’s columns', async () => {
    const created = await run(['create', '-f', '-'], eventYaml(name, `web-${client.tag}`));
    expect(created.stderr).toBe('');
    expect(created.stdout.trim()).toBe(`event/${name} created`);
    const got = await run(['get', 'events', '-n', 'default', '--field-selector', `involvedObject.name=web-${client.tag}`]);
    expect(got.stderr).toBe('');
    const [header, row] = got.stdout.trim().split('\n');
    expect(cells(header)).toEqual(['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE']);
    expect(cells(row).slice(1)).toEqual(['Warning', 'BackOff', `pod/web-${client.tag}`, 'Back-off restarting failed container']);
    const wide = await run(['get', 'ev', '-o', 'wide', '--field-selector', `involvedObject.name=web-${client.tag}`]);
    const [wideHeader, wideRow] = wide.stdout.trim().split('\n');
    expect(cells(wideHeader)).toEqual(['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'SUBOBJECT', 'SOURCE', 'MESSAGE', 'FIRST SEEN', 'COUNT', 'NAME']);
    expect(cells(wideRow).slice(4, 6)).toEqual(['spec.containers{web}', 'kubelet, node-1']);
    expect(cells(wideRow).slice(-2)).toEqual(['4', name]);
  });

  it('gets the same event through events.k8s.io/v1', async () => {
    const got = await run(['get', 'events.v1.events.k8s.io', name, '-o', 'jsonpath={.apiVersion} {.regarding.name} {.note} {.deprecatedCount}']);
    expect(got.stderr).toBe('');
    expect(got.stdout).toBe(`events.k8s.io/v1 web-${client.tag} Back-off restarting failed container 4`);
  });

  it('watches events of either version with get -w', async () => {
    const watching = startKubectl(client, server().url, ['get', 'events.events.k8s.io', '-w', '--field-selector', `reason=Watched${client.tag}`]);
    try {
      await new Promise((resolve) => setTimeout(resolve, 1000)); // kubectl lists (nothing) before it watches
      const reason = `Watched${client.tag}`;
      const created = await call('POST', '/api/v1/namespaces/default/events', {
        metadata: { name: `watched-${client.tag}` },
        involvedObject: { kind: 'ConfigMap', namespace: 'default', name: 'settings' },
        reason,
        message: 'seen through events.k8s.io',
        type: 'Normal',
      });
      expect(created.status).toBe(201);
      const lines = await watching.waitForLines(2);
      expect(cells(lines[0])).toEqual(['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE']);
      expect(cells(lines[1]).slice(1)).toEqual(['Normal', reason, 'configmap/settings', 'seen through events.k8s.io']);
    } finally {
      watching.stop();
    }
  });

  it('creates, gets and deletes a lease', async () => {
    const lease = `lease-${client.tag}`;
    expect((await run(['apply', '-f', '-'], leaseYaml(lease))).stdout.trim()).toBe(`lease.coordination.k8s.io/${lease} created`);
    const got = await run(['get', 'leases', lease]);
    expect(got.stderr).toBe('');
    const [header, row] = got.stdout.trim().split('\n');
    expect(cells(header)).toEqual(['NAME', 'HOLDER', 'AGE']);
    expect(cells(row).slice(0, 2)).toEqual([lease, 'candidate-1']);
    expect((await run(['delete', 'lease', lease])).stdout.trim()).toBe(`lease.coordination.k8s.io "${lease}" deleted`);
  });
});

describe('kubectl events (the kubectl on the PATH)', () => {
  const [current] = KUBECTLS;
  it('lists the events of a namespace, all and by type', async () => {
    await call('POST', '/api/v1/namespaces/default/events', {
      metadata: { name: 'scheduled' },
      involvedObject: { kind: 'Pod', namespace: 'default', name: 'db-0' },
      reason: 'Scheduled',
      message: 'Successfully assigned default/db-0',
      type: 'Normal',
      source: { component: 'scheduler' },
      firstTimestamp: new Date(Date.now() - 60_000).toISOString().replace(/\.\d+Z$/, 'Z'),
      lastTimestamp: new Date(Date.now() - 30_000).toISOString().replace(/\.\d+Z$/, 'Z'),
      count: 1,
    });
    const all = await kubectl(current, server().url, ['events', '-n', 'default']);
    expect(all.stderr).toBe('');
    const lines = all.stdout.trim().split('\n');
    expect(cells(lines[0])).toEqual(['LAST SEEN', 'TYPE', 'REASON', 'OBJECT', 'MESSAGE']);
    expect(lines.some((line) => cells(line).slice(1).join('|') === 'Normal|Scheduled|Pod/db-0|Successfully assigned default/db-0')).toBe(true);
    // (--for needs the object's kind, which this server does not serve for pods)
    const normal = await kubectl(current, server().url, ['events', '-n', 'default', '--types', 'Normal']);
    expect(normal.stderr).toBe('');
    const rows = normal.stdout.trim().split('\n').slice(1).map(cells);
    expect(new Set(rows.map((row) => row[1]))).toEqual(new Set(['Normal'])); // the Warnings of the tests above are left out
    const scheduled = rows.find((row) => row[2] === 'Scheduled');
    expect(scheduled?.[0]).toMatch(/^\d+s$/);
  });
});
