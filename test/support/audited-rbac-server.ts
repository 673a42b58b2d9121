import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dump } from 'js-yaml';
import { startTestServer, TestServer } from './test-server';

/**
 * A server with a secure port, the users of `tokens` (tokens.csv lines), RBAC, and an audit log of the requests to
 * `auditedGroups` at Metadata level, its files in `work`. Gives the server, its CA and the audit log's path.
 */
export async function startAuditedRbacServer(work: string, tokens: string, auditedGroups: string[]): Promise<{ server: TestServer; ca: string; auditLog: string }> {
  writeFileSync(join(work, 'tokens.csv'), tokens);
  const rules = [{ level: 'Metadata', resources: auditedGroups.map((group) => ({ group })) }];
  writeFileSync(join(work, 'policy.yaml'), dump({ apiVersion: 'audit.k8s.io/v1', kind: 'Policy', omitStages: ['RequestReceived'], rules }));
  const auditLog = join(work, 'audit.log');
  const server = await startTestServer(undefined, {
    SECURE_PORT: '0',
    CERT_DIR: join(work, 'certs'),
    TOKEN_AUTH_FILE: join(work, 'tokens.csv'),
    AUTHORIZATION_MODE: 'RBAC',
    AUDIT_POLICY_FILE: join(work, 'policy.yaml'),
    AUDIT_LOG_PATH: auditLog,
  });
  return { server, ca: readFileSync(join(work, 'certs', 'apiserver.crt'), 'utf8'), auditLog };
}
