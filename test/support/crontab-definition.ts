/**
 * The CronTab CustomResourceDefinition of the tests (the example of the Kubernetes documentation, grown): a schema
 * with validation, defaults, a keyed list, an atomic list and preserved fields; status and scale; printer columns.
 */
export const CRONTAB_SCHEMA = {
  type: 'object',
  properties: {
    spec: {
      type: 'object',
      required: ['cronSpec'],
      properties: {
        cronSpec: { type: 'string', pattern: '^(\\S+ ){4}\\S+$' },
        image: { type: 'string' },
        replicas: { type: 'integer', minimum: 1, maximum: 10, default: 1 },
        policy: { type: 'string', enum: ['Allow', 'Forbid'], default: 'Allow' },
        ports: {
          type: 'array',
          'x-kubernetes-list-type': 'map',
          'x-kubernetes-list-map-keys': ['name'],
          items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, port: { type: 'integer', default: 80 } } },
        },
        args: { type: 'array', items: { type: 'string' } },
        extra: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true },
        size: { 'x-kubernetes-int-or-string': true },
      },
    },
    status: { type: 'object', properties: { replicas: { type: 'integer' }, selector: { type: 'string' }, lastRun: { type: 'string' } } },
  },
};

export const crontabCrd = (versions: unknown[] = [
  {
    name: 'v1',
    served: true,
    storage: true,
    schema: { openAPIV3Schema: CRONTAB_SCHEMA },
    subresources: { status: {}, scale: { specReplicasPath: '.spec.replicas', statusReplicasPath: '.status.replicas', labelSelectorPath: '.status.selector' } },
    additionalPrinterColumns: [
      { name: 'Spec', type: 'string', jsonPath: '.spec.cronSpec' },
      { name: 'Replicas', type: 'integer', jsonPath: '.spec.replicas' },
      { name: 'Age', type: 'date', jsonPath: '.metadata.creationTimestamp' },
    ],
  },
  { name: 'v1beta1', served: false, storage: false, schema: { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } } },
]) => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: 'crontabs.stable.example.com' },
  spec: {
    group: 'stable.example.com',
    scope: 'Namespaced',
    names: { plural: 'crontabs', singular: 'crontab', kind: 'CronTab', shortNames: ['ct'], categories: ['all'] },
    versions,
  },
});
