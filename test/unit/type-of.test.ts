import { conform } from '../../src/apimachinery/schema/conform';
import { inline, required, s, struct } from '../../src/apimachinery/schema/schema';
import { TypeOf } from '../../src/apimachinery/schema/type-of';
import { CustomResourceDefinition } from '../../src/apis/apiextensions/customresourcedefinition/crd.schema';
import { Deployment, DEPLOYMENT } from '../../src/apis/extensions/deployment/deployment.schema';
import { Probe } from '../../src/apis/workloads/pod-template/container.schema';

/**
 * The types inferred from the schemas. Most of the checks are made by the compiler (`tsc -p tsconfig.test.json`): a
 * type that disagreed with its schema would fail to compile here; the runtime checks show that decoding keeps every
 * field the type allows.
 */

/** true only when A and B are the same type. */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

const PKG = 'test.types';
const SOURCE = struct(PKG, 'Source', { path: [1, s.string, required] });
const WIDGET = struct(PKG, 'Widget', {
  name: [1, s.string, required],
  paused: [2, s.boolean],
  replicas: [3, s.int32],
  size: [4, s.int64],
  data: [5, s.bytes],
  port: [6, s.intOrString],
  memory: [7, s.quantity],
  since: [8, s.time],
  seen: [9, s.microTime],
  fields: [10, s.fieldsV1],
  extra: [11, s.any],
  tags: [12, s.stringList],
  labels: [13, s.stringMap],
  parts: [14, s.list(struct(PKG, 'Part', { id: [1, s.int32] }))],
  source: [15, SOURCE, inline],
});

type Widget = TypeOf<typeof WIDGET>;

const widgetType: Equal<
  Widget,
  {
    name?: string;
    paused?: boolean;
    replicas?: number;
    size?: number;
    data?: string;
    port?: number | string;
    memory?: string;
    since?: string | null;
    seen?: string | null;
    fields?: Record<string, unknown>;
    extra?: unknown;
    tags?: string[];
    labels?: Record<string, string>;
    parts?: { id?: number }[];
    path?: string;
  }
> = true;

const place = (kind: string) => ({ struct: kind, path: kind });

describe('types inferred from schemas', () => {
  it('map each leaf, list, map, struct and inline struct to its JSON type', () => {
    const widget: Widget = {
      name: 'w',
      paused: false,
      replicas: 2,
      size: 3,
      data: 'AQI=',
      port: 'http',
      memory: '1Gi',
      since: '2017-08-01T10:00:00Z',
      fields: { 'f:spec': {} },
      extra: [1],
      tags: ['a'],
      labels: { app: 'w' },
      parts: [{ id: 1 }],
      path: '/data',
    };
    expect(widgetType).toBe(true);
    expect(conform(widget, WIDGET, place('Widget'))).toEqual(widget);
  });

  it('type a Deployment as its schema has it, every field kept by decoding', () => {
    const deployment: Deployment = {
      metadata: { name: 'web', labels: { app: 'web' } },
      spec: {
        replicas: 2,
        selector: { matchLabels: { app: 'web' } },
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 1, maxSurge: '25%' } },
        rollbackTo: { revision: 3 },
        template: {
          metadata: { labels: { app: 'web' } },
          spec: {
            containers: [
              {
                name: 'web',
                image: 'nginx',
                ports: [{ containerPort: 80 }],
                resources: { limits: { cpu: '500m' } },
                livenessProbe: { httpGet: { path: '/', port: 80 }, periodSeconds: 10 },
                env: [{ name: 'A', valueFrom: { configMapKeyRef: { name: 'config', key: 'a' } } }],
              },
            ],
            volumes: [{ name: 'data', emptyDir: {} }],
          },
        },
      },
      status: { replicas: 2, conditions: [{ type: 'Available', status: 'True' }] },
    };
    expect(conform(deployment, DEPLOYMENT, place('Deployment'))).toEqual(deployment);
  });

  it('reject what the schemas do not declare', () => {
    const misspelt: Deployment = {
      metadata: {},
      // @ts-expect-error: no such field
      spce: {},
    };
    // @ts-expect-error: replicas is an int32
    const wrongLeaf: Deployment = { metadata: {}, spec: { replicas: '2' } };
    // @ts-expect-error: maxSurge is an int or a string
    const wrongIntOrString: Deployment = { metadata: {}, spec: { strategy: { rollingUpdate: { maxSurge: true } } } };
    // @ts-expect-error: an inline field's own fields are in its place, as JSON has them
    const inlineByName: Probe = { handler: { exec: { command: ['true'] } } };
    // @ts-expect-error: a quantity is decoded to text
    const quantityNumber: Deployment['spec'] = { template: { spec: { containers: [{ resources: { limits: { cpu: 1 } } }] } } };
    // @ts-expect-error: the server gives every definition a spec
    const noSpec: CustomResourceDefinition = { metadata: {} };
    expect([misspelt, wrongLeaf, wrongIntOrString, inlineByName, quantityNumber, noSpec]).toHaveLength(6);
  });
});
