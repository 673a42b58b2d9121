import { KubeObject } from '../../../apimachinery/meta/kube-object';
import { RBAC_GROUP } from '../../../apis/rbac/rbac.group';
import { ALL_RULES } from '../authorizer';
import { AUTHENTICATED_GROUP, MASTERS_GROUP, SERVICE_ACCOUNTS_GROUP, UNAUTHENTICATED_GROUP } from '../../../apimachinery/authentication/user-info';

/** Upstream's marks of the default policy: the server keeps objects so annotated up to date at every start. */
export const AUTOUPDATE_ANNOTATION = 'rbac.authorization.kubernetes.io/autoupdate';
const metadata = (name: string, labels: Record<string, string> = {}) => ({
  name,
  labels: { 'kubernetes.io/bootstrapping': 'rbac-defaults', ...labels },
  annotations: { [AUTOUPDATE_ANNOTATION]: 'true' },
});

const aggregateTo = (role: string) => ({ [`${RBAC_GROUP}/aggregate-to-${role}`]: 'true' });

const READ = ['get', 'list', 'watch'];
const WRITE = ['create', 'delete', 'deletecollection', 'patch', 'update'];

/** The resources of this server's workload kinds, as the default roles grant them. */
const WORKLOADS = {
  core: ['replicationcontrollers', 'replicationcontrollers/scale'],
  extensions: [
    'daemonsets',
    'deployments',
    'deployments/rollback',
    'deployments/scale',
    'ingresses',
    'networkpolicies',
    'replicasets',
    'replicasets/scale',
    'replicationcontrollers/scale',
  ],
  status: ['daemonsets/status', 'deployments/status', 'ingresses/status', 'replicasets/status'],
  apps: ['daemonsets', 'deployments', 'deployments/rollback', 'deployments/scale', 'replicasets', 'replicasets/scale'],
  appsStatus: ['daemonsets/status', 'deployments/status', 'replicasets/status'],
  // as upstream's roles grant networking.k8s.io: a rule on one group grants nothing in the other
  networking: ['ingresses', 'networkpolicies'],
};

const clusterRole = (name: string, body: Record<string, unknown>, labels?: Record<string, string>): KubeObject => ({
  apiVersion: `${RBAC_GROUP}/v1`,
  kind: 'ClusterRole',
  metadata: metadata(name, labels),
  ...body,
});

const groups = (...names: string[]) => names.map((name) => ({ kind: 'Group', apiGroup: RBAC_GROUP, name }));

const clusterRoleBinding = (name: string, role: string, subjects: unknown[]): KubeObject => ({
  apiVersion: `${RBAC_GROUP}/v1`,
  kind: 'ClusterRoleBinding',
  metadata: metadata(name),
  roleRef: { apiGroup: RBAC_GROUP, kind: 'ClusterRole', name: role },
  subjects,
});

/** The default cluster roles, upstream's names and meanings over this server's resources. */
export const BOOTSTRAP_CLUSTER_ROLES: KubeObject[] = [
  clusterRole('cluster-admin', { rules: ALL_RULES }),
  clusterRole('system:discovery', {
    rules: [
      {
        verbs: ['get'],
        nonResourceURLs: ['/api', '/api/*', '/apis', '/apis/*', '/healthz', '/livez', '/openapi', '/openapi/*', '/readyz', '/version', '/version/'],
      },
    ],
  }),
  clusterRole('system:public-info-viewer', {
    rules: [{ verbs: ['get'], nonResourceURLs: ['/healthz', '/livez', '/readyz', '/version', '/version/'] }],
  }),
  clusterRole('system:basic-user', {
    rules: [
      { verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['selfsubjectaccessreviews', 'selfsubjectrulesreviews'] },
      { verbs: ['create'], apiGroups: ['authentication.k8s.io'], resources: ['selfsubjectreviews'] },
    ],
  }),
  clusterRole('admin', { aggregationRule: { clusterRoleSelectors: [{ matchLabels: aggregateTo('admin') }] } }),
  clusterRole('edit', { aggregationRule: { clusterRoleSelectors: [{ matchLabels: aggregateTo('edit') }] } }, aggregateTo('admin')),
  clusterRole('view', { aggregationRule: { clusterRoleSelectors: [{ matchLabels: aggregateTo('view') }] } }, aggregateTo('edit')),
  clusterRole(
    'system:aggregate-to-admin',
    {
      rules: [
        { verbs: [...WRITE, ...READ].sort(), apiGroups: [RBAC_GROUP], resources: ['rolebindings', 'roles'] },
        { verbs: ['create'], apiGroups: ['authorization.k8s.io'], resources: ['localsubjectaccessreviews'] },
      ],
    },
    aggregateTo('admin'),
  ),
  clusterRole(
    'system:aggregate-to-edit',
    {
      rules: [
        { verbs: ['impersonate'], apiGroups: [''], resources: ['serviceaccounts'] },
        { verbs: WRITE, apiGroups: [''], resources: ['serviceaccounts'] },
        { verbs: ['create'], apiGroups: [''], resources: ['serviceaccounts/token'] },
        { verbs: WRITE, apiGroups: [''], resources: WORKLOADS.core },
        { verbs: WRITE, apiGroups: ['extensions'], resources: WORKLOADS.extensions },
        { verbs: WRITE, apiGroups: ['apps'], resources: WORKLOADS.apps },
        { verbs: WRITE, apiGroups: ['networking.k8s.io'], resources: WORKLOADS.networking },
        // as upstream: editors read and write secrets, which viewers may not read
        { verbs: READ, apiGroups: [''], resources: ['secrets'] },
        { verbs: WRITE, apiGroups: [''], resources: ['configmaps', 'secrets'] },
      ],
    },
    aggregateTo('edit'),
  ),
  clusterRole(
    'system:aggregate-to-view',
    {
      rules: [
        { verbs: READ, apiGroups: [''], resources: [...WORKLOADS.core, 'replicationcontrollers/status'] },
        // as upstream: reading namespaces in a namespace's scope reads that namespace (which ones a user may use)
        { verbs: READ, apiGroups: [''], resources: ['namespaces', 'namespaces/status'] },
        // as upstream's: view (so edit and admin) reads Events; writing them is for controllers' own roles
        { verbs: READ, apiGroups: [''], resources: ['events'] },
        { verbs: READ, apiGroups: [''], resources: ['serviceaccounts'] },
        { verbs: READ, apiGroups: ['extensions'], resources: [...WORKLOADS.extensions.filter((r) => !r.endsWith('/rollback')), ...WORKLOADS.status].sort() },
        { verbs: READ, apiGroups: ['apps'], resources: [...WORKLOADS.apps.filter((r) => !r.endsWith('/rollback')), ...WORKLOADS.appsStatus].sort() },
        { verbs: READ, apiGroups: ['networking.k8s.io'], resources: [...WORKLOADS.networking, 'ingresses/status'].sort() },
        { verbs: READ, apiGroups: [''], resources: ['configmaps'] },
      ],
    },
    aggregateTo('view'),
  ),
  clusterRole('system:service-account-issuer-discovery', {
    rules: [
      {
        verbs: ['get'],
        nonResourceURLs: ['/.well-known/openid-configuration', '/.well-known/openid-configuration/', '/openid/v1/jwks', '/openid/v1/jwks/'],
      },
    ],
  }),
];

export const BOOTSTRAP_CLUSTER_ROLE_BINDINGS: KubeObject[] = [
  clusterRoleBinding('cluster-admin', 'cluster-admin', groups(MASTERS_GROUP)),
  clusterRoleBinding('system:discovery', 'system:discovery', groups(AUTHENTICATED_GROUP)),
  clusterRoleBinding('system:basic-user', 'system:basic-user', groups(AUTHENTICATED_GROUP)),
  clusterRoleBinding('system:public-info-viewer', 'system:public-info-viewer', groups(AUTHENTICATED_GROUP, UNAUTHENTICATED_GROUP)),
  clusterRoleBinding('system:service-account-issuer-discovery', 'system:service-account-issuer-discovery', groups(SERVICE_ACCOUNTS_GROUP)),
];
