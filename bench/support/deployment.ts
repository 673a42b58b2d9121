/** A Deployment of realistic size (about 1 KB as JSON): a pod template with two containers. */
export function deployment(name: string, labels: Record<string, string> = {}, revision = '1'): object {
  const app = { app: 'web', tier: 'frontend', ...labels };
  return {
    apiVersion: 'extensions/v1beta1',
    kind: 'Deployment',
    metadata: { name, labels: app, annotations: { 'bench.pgkube.io/revision': revision } },
    spec: {
      replicas: 3,
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } },
      template: {
        metadata: { labels: { app: 'web', tier: 'frontend' } },
        spec: {
          containers: [
            {
              name: 'web',
              image: 'registry.example.com/team/web:1.13.12',
              args: ['--port=8080', '--log-level=info'],
              ports: [{ name: 'http', containerPort: 8080, protocol: 'TCP' }],
              env: [
                { name: 'MODE', value: 'production' },
                { name: 'CACHE_SIZE', value: '256' },
              ],
              resources: { requests: { cpu: '250m', memory: '256Mi' }, limits: { cpu: '1', memory: '512Mi' } },
              readinessProbe: { httpGet: { path: '/healthz', port: 8080 }, periodSeconds: 5 },
            },
            {
              name: 'log-shipper',
              image: 'registry.example.com/team/shipper:2.4.0',
              args: ['--source=/var/log/web', '--target=collector:24224'],
              resources: { requests: { cpu: '50m', memory: '64Mi' }, limits: { cpu: '200m', memory: '128Mi' } },
              volumeMounts: [{ name: 'logs', mountPath: '/var/log/web' }],
            },
          ],
          volumes: [{ name: 'logs', emptyDir: {} }],
        },
      },
    },
  };
}

/** Creates deployment(name) in a namespace through the API (the server's insecure port at `base`). */
export async function createDeployment(base: string, namespace: string, name: string): Promise<void> {
  const created = await fetch(`${base}/apis/extensions/v1beta1/namespaces/${namespace}/deployments`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(deployment(name)),
  });
  if (created.status !== 201) throw new Error(`create of deployment ${namespace}/${name}: ${created.status} ${await created.text()}`);
}
