/**
 * `npm run bench:rbac`: what RBAC authorization adds to the server CPU time of a GET on the secure port, with 1,000
 * roles and bindings stored. Two measures: (1) the same GET of one Deployment by two users of one server, a member of
 * system:masters, whom the authorizer allows before RBAC is asked, and a user whom RBAC allows through a RoleBinding
 * of its group after cluster bindings of its groups that do not allow it (end to end, but within the noise of a
 * shared machine); (2) the RBAC decision itself, timed in this process over the same stored policy (an RbacIndex
 * loaded from the database), as a share of the GET's server CPU. Target: RBAC adds at most 10 %.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Client, Pool } from 'pg';
import { RbacAuthorizer } from '../src/auth/authorization/rbac/rbac.authorizer';
import { RbacIndex } from '../src/auth/authorization/rbac/rbac-index';
import { ObjectStore } from '../src/storage/objects/object-store';
import { OutputCache } from '../src/storage/objects/output-cache';
import { ChangeFeed } from '../src/watch/change-feed.service';
import { ChangeHistory } from '../src/storage/changes/change-history';
import { InformerFactory } from '../src/watch/informer-factory';
import { http } from '../test/support/http';
import { createDeployment } from './support/deployment';
import { describeMachine, formatNumber, table, writeSection } from './support/results';
import { runBenchmark } from './support/run';
import { startSecureCluster } from './support/secure-cluster';
import { insertObjects, StoredBody } from './support/stored-objects';
import { measureInTurns } from './support/turns';
import { GroupCommit } from '../src/storage/objects/group-commit';
import { GroupRead } from '../src/storage/objects/group-read';
import { ServerMetrics } from '../src/metrics/server-metrics';
import { EncryptionAtRest } from '../src/storage/encryption/encryption-at-rest';
import { DatabaseHistory } from '../src/storage/database/database-history';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 16;
const ROUNDS = 5;
const TARGET = 1.1;
const RBAC_GROUP = 'rbac.authorization.k8s.io';
const PATH = '/apis/extensions/v1beta1/namespaces/bench/deployments/web';
const MASTER_TOKEN = 'master-token';
const READER_TOKEN = 'reader-token';
/** roles and bindings spread over namespaces, besides the reader's own */
const SPREAD = 498;

const meta = (name: string, namespace?: string) => ({ name, ...(namespace ? { namespace } : {}), uid: randomUUID(), creationTimestamp: new Date().toISOString() });
const rules = (i: number) => [
  { verbs: ['get', 'list', 'watch'], apiGroups: ['extensions'], resources: ['deployments', `deployments-${i}`] },
  { verbs: ['update'], apiGroups: ['extensions'], resources: ['replicasets'], resourceNames: [`rs-${i}`] },
  { verbs: ['get'], nonResourceURLs: [`/custom/${i}`] },
];
const binding = (name: string, namespace: string | undefined, kind: string, role: string, subjects: object[]) => ({
  metadata: meta(name, namespace),
  subjects,
  roleRef: { apiGroup: RBAC_GROUP, kind, name: role },
});
const group = (name: string) => ({ kind: 'Group', apiGroup: RBAC_GROUP, name });
const user = (name: string) => ({ kind: 'User', apiGroup: RBAC_GROUP, name });

/** 1,000 roles and bindings: most in other namespaces; the reader's groups bound in the cluster to roles that do not allow the GET. */
async function storePolicy(sql: Client): Promise<number> {
  const roles: StoredBody[] = [];
  const roleBindings: StoredBody[] = [];
  for (let i = 0; i < SPREAD; i++) {
    const namespace = `ns-${i % 50}`;
    roles.push({ metadata: meta(`role-${i}`, namespace), rules: rules(i) });
    roleBindings.push(binding(`binding-${i}`, namespace, 'Role', `role-${i}`, [user(`user-${i}`), group(`group-${i % 20}`), group('readers')]));
  }
  roles.push({ metadata: meta('reader', 'bench'), rules: [{ verbs: ['get'], apiGroups: ['extensions'], resources: ['deployments'] }] });
  roleBindings.push(binding('readers', 'bench', 'Role', 'reader', [group('readers')]));
  const clusterRoles = [{ metadata: meta('other-things'), rules: rules(-1) }];
  const clusterBindings = [binding('readers-other', undefined, 'ClusterRole', 'other-things', [group('readers'), group('auditors')])];
  const sets: [string, StoredBody[]][] = [['roles', roles], ['rolebindings', roleBindings], ['clusterroles', clusterRoles], ['clusterrolebindings', clusterBindings]];
  for (const [resource, bodies] of sets) await insertObjects(sql, bodies, { group: RBAC_GROUP, resource });
  return sets.reduce((n, [, bodies]) => n + bodies.length, 0);
}

/** µs per RBAC decision for the reader's GET, with the policy read from the database as an instance reads it. */
async function timeDecision(databaseUrl: string): Promise<number> {
  const pool = new Pool({ connectionString: databaseUrl, max: 1 });
  // the change feed is not needed here: the index is read once and the stored policy does not change
  const feed = { subscribe: () => 0n, unsubscribe: () => undefined } as unknown as ChangeFeed;
  const metrics = new ServerMetrics();
  const plain = new EncryptionAtRest(new Map());
  const history = new DatabaseHistory(pool);
  const store = new ObjectStore(pool, pool, new GroupCommit(pool, history, metrics), new GroupRead(pool, metrics), new GroupRead(pool, metrics), plain, history, new OutputCache());
  const index = new RbacIndex(new InformerFactory(feed, new ChangeHistory(pool, plain, history), store));
  await index.load();
  await pool.end();
  const authorizer = new RbacAuthorizer(index);
  const attributes = {
    user: { username: 'reader', groups: ['readers', 'auditors', 'group-3', 'system:authenticated'] },
    verb: 'get',
    resourceRequest: true,
    apiGroup: 'extensions',
    resource: 'deployments',
    subresource: '',
    namespace: 'bench',
    name: 'web',
    path: PATH,
  };
  const decide = (times: number) => {
    for (let i = 0; i < times; i++) if (authorizer.authorize(attributes).decision !== 'allow') throw new Error('the reader is not allowed');
  };
  decide(10_000);
  const times = 200_000;
  const start = process.cpuUsage();
  decide(times);
  const used = process.cpuUsage(start);
  return (used.user + used.system) / times;
}

runBenchmark(async () => {
  const secured = await startSecureCluster('rbac', `${MASTER_TOKEN},master,1,"system:masters"\n${READER_TOKEN},reader,2,"readers,auditors,group-3"\n`, {}, () => ({
    AUTHORIZATION_MODE: 'RBAC',
  }));
  const { cluster, secureUrl } = secured;
  try {
    const server = cluster.servers[0];
    await createDeployment(server.url, 'bench', 'web');
    const sql = new Client({ connectionString: cluster.databaseUrl });
    await sql.connect();
    const stored = await storePolicy(sql);
    const { rows } = await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM objects WHERE api_group = '${RBAC_GROUP}'`);
    await sql.end();

    const ca = readFileSync(secured.path('certs/apiserver.crt'), 'utf8');
    const readerGet = () => http(secureUrl, 'GET', PATH, { headers: { authorization: `Bearer ${READER_TOKEN}` }, tls: { ca } });
    for (let tries = 0; (await readerGet()).status !== 200; tries++) {
      if (tries > 100) throw new Error('the stored bindings never reached the RBAC index');
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    const [master, reader] = await measureInTurns(
      server,
      [
        { url: secureUrl, path: PATH, headers: { authorization: `Bearer ${MASTER_TOKEN}` } },
        { url: secureUrl, path: PATH, headers: { authorization: `Bearer ${READER_TOKEN}` } },
      ],
      { seconds: SECONDS, rounds: ROUNDS, connections: CONNECTIONS },
    );
    const decisionUs = await timeDecision(cluster.databaseUrl);
    const ratio = reader.cpuUs / master.cpuUs;
    const share = decisionUs / master.cpuUs;
    const body = [
      await describeMachine(cluster.databaseUrl),
      `- ${formatNumber(stored)} roles and bindings stored by SQL (${formatNumber(rows[0].n)} RBAC objects with the default policy); ` +
        `${CONNECTIONS} connections, ${SECONDS} s of each user in ${ROUNDS} rounds taken in turn, after a 2 s warm-up of each; GET of one Deployment over TLS with a token`,
      '',
      table(
        ['user', 'server CPU µs/request', 'requests/s', 'p50 ms'],
        [
          ['system:masters (allowed before RBAC is asked)', formatNumber(master.cpuUs), formatNumber(master.rps), formatNumber(master.p50)],
          ['allowed by RBAC (a RoleBinding of its group)', formatNumber(reader.cpuUs), formatNumber(reader.rps), formatNumber(reader.p50)],
        ],
      ),
      '',
      `End to end, RBAC-allowed/masters CPU per request: ${ratio.toFixed(2)}× (noise of the shared machine included). ` +
        `The RBAC decision alone: **${formatNumber(decisionUs)} µs**, ${(share * 100).toFixed(2)} % of the GET's server CPU ` +
        `(target ≤ ${((TARGET - 1) * 100).toFixed(0)} %: ${share <= TARGET - 1 ? 'met' : 'not met'}).`,
    ].join('\n');
    console.log(body);
    writeSection('RBAC authorization: GET allowed by RBAC against one allowed before RBAC', body);
  } finally {
    await secured.stop();
  }
});
