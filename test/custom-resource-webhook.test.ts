import { ServerResponse } from 'node:http';
import { createServer, Server } from 'node:https';
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { useTestServer } from './support/api';
import { issue, makeCa } from './support/pki';
import { kubectl, KUBECTLS } from './support/kubectl';
import { until } from './support/until';
import { WatchClient } from './support/watch-client';

/**
 * A CustomResourceDefinition with the Webhook conversion: a real HTTPS conversion webhook (its certificate from a CA
 * of the test's own) renames `spec.cronSpec` (v1, the storage version) to `spec.schedule` (v2) and back.
 */
const { call, server } = useTestServer();

const CRDS = '/apis/apiextensions.k8s.io/v1/customresourcedefinitions';
const NAME = 'gadgets.webhook.example.com';
const GROUP = 'webhook.example.com';
const path = (version: string, name = '') => `/apis/${GROUP}/${version}/namespaces/default/gadgets${name && `/${name}`}`;
const MERGE = { 'content-type': 'application/merge-patch+json' };
const SPEC = { type: 'object', properties: { cronSpec: { type: 'string' }, schedule: { type: 'string' } }, 'x-kubernetes-preserve-unknown-fields': true };
const OPEN = { openAPIV3Schema: { type: 'object', properties: { spec: SPEC } } };

type Mode = 'convert' | 'refuse' | 'hang' | 'wrong-uid' | 'unconverted' | 'relabel' | 'huge' | 'bad-label' | 'untyped';

/** The test's conversion webhook: what it was asked, and how it answers. */
const webhook = {
  mode: 'convert' as Mode,
  reviews: [] as any[],
  /** the TLS connections the server opened to the webhook */
  connections: 0,
  server: undefined as Server | undefined,
  port: 0,
};

const RENAMES: Record<string, [string, string]> = { [`${GROUP}/v1`]: ['schedule', 'cronSpec'], [`${GROUP}/v2`]: ['cronSpec', 'schedule'] };

function converted(object: any, desired: string) {
  const [from, to] = RENAMES[desired];
  const { [from]: value, ...spec } = object.spec ?? {};
  return { ...object, apiVersion: desired, spec: { ...spec, ...(value !== undefined && { [to]: value }) } };
}

function answer(review: any) {
  const { uid, desiredAPIVersion, objects } = review.request;
  if (webhook.mode === 'refuse') return { ...review, request: undefined, response: { uid, result: { status: 'Failure', message: 'cannot convert gadgets today' } } };
  return {
    ...(webhook.mode !== 'untyped' && { apiVersion: review.apiVersion, kind: 'ConversionReview' }),
    response: {
      uid: webhook.mode === 'wrong-uid' ? 'other' : uid,
      result: { status: 'Success' },
      convertedObjects: objects.map((o: any) => {
        if (webhook.mode === 'unconverted') return o;
        const out = converted(o, desiredAPIVersion);
        // a webhook may change labels and annotations, and nothing else of the metadata
        if (webhook.mode === 'bad-label') return { ...out, metadata: { ...out.metadata, labels: { converted: 'not a label value' } } };
        return webhook.mode === 'relabel' ? { ...out, metadata: { ...out.metadata, labels: { converted: 'yes' }, generation: 99 } } : out;
      }),
    },
  };
}

/** More than the server reads of a small review's answer (64 MiB). */
const HUGE = 65 * 1024 * 1024;

/** A valid answer after `padding` bytes of JSON whitespace, written as the client takes it, until it hangs up. */
function sendPadded(response: ServerResponse, text: string, padding: number) {
  const chunk = Buffer.alloc(1024 * 1024, ' ');
  let left = padding;
  response.on('error', () => undefined);
  const more = () => {
    while (left > 0 && !response.destroyed) {
      left -= chunk.length;
      if (!response.write(chunk)) return void response.once('drain', more);
    }
    if (!response.destroyed) response.end(text);
  };
  more();
}

let work: string;
let caBundle: string;
let otherCaBundle: string;

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), 'pgkube-conversion-webhook-'));
  const ca = makeCa(work, 'webhook-ca');
  const serving = issue(work, ca, 'webhook', '/CN=webhook', ['subjectAltName=IP:127.0.0.1', 'extendedKeyUsage=serverAuth']);
  caBundle = readFileSync(ca.cert).toString('base64');
  otherCaBundle = readFileSync(makeCa(work, 'other-ca').cert).toString('base64');
  webhook.server = createServer({ key: readFileSync(serving.key), cert: readFileSync(serving.cert) }, (request, response) => {
    let body = '';
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      const review = JSON.parse(body);
      webhook.reviews.push({ url: request.url, ...review });
      if (webhook.mode === 'hang') return; // never answers
      response.setHeader('content-type', 'application/json');
      if (webhook.mode === 'huge') return void sendPadded(response, JSON.stringify(answer(review)), HUGE);
      response.end(JSON.stringify(answer(review)));
    });
  });
  webhook.server.on('secureConnection', () => webhook.connections++);
  await new Promise<void>((resolve) => webhook.server?.listen(0, '127.0.0.1', resolve));
  webhook.port = (webhook.server.address() as AddressInfo).port;
});

afterAll(async () => {
  webhook.server?.closeAllConnections();
  await new Promise((resolve) => webhook.server?.close(resolve));
  rmSync(work, { recursive: true, force: true });
});

const clientConfig = (overrides: Record<string, unknown> = {}) => ({ url: `https://127.0.0.1:${webhook.port}/convert`, caBundle, ...overrides });

const definition = (conversion: Record<string, unknown>) => ({
  apiVersion: 'apiextensions.k8s.io/v1',
  kind: 'CustomResourceDefinition',
  metadata: { name: NAME },
  spec: {
    group: GROUP,
    scope: 'Namespaced',
    names: { plural: 'gadgets', singular: 'gadget', kind: 'Gadget' },
    versions: [
      { name: 'v1', served: true, storage: true, schema: OPEN, additionalPrinterColumns: [{ name: 'Spec', type: 'string', jsonPath: '.spec.cronSpec' }] },
      { name: 'v2', served: true, storage: false, schema: OPEN, additionalPrinterColumns: [{ name: 'Schedule', type: 'string', jsonPath: '.spec.schedule' }] },
    ],
    conversion,
  },
});

const gadget = (version: string, name: string, spec: Record<string, unknown>) => ({ apiVersion: `${GROUP}/${version}`, kind: 'Gadget', metadata: { name }, spec });

const stored = async (name: string): Promise<any> =>
  (await server().sql(`SELECT body FROM objects WHERE api_group = $1 AND namespace = 'default' AND name = $2`, [GROUP, name]))[0]?.body;

/** Puts the definition's conversion as given, and waits until the server serves it. */
async function convertWith(conversion: Record<string, unknown>) {
  const current = await call('GET', `${CRDS}/${NAME}`);
  const body = current.status === 200 ? { ...current.json, spec: { ...current.json.spec, conversion } } : definition(conversion);
  const written = await call(current.status === 200 ? 'PUT' : 'POST', current.status === 200 ? `${CRDS}/${NAME}` : CRDS, body);
  expect([200, 201]).toContain(written.status);
  await until(async () => (await call('GET', path('v1'))).status !== 404); // served (its list may need the webhook)
  await new Promise((resolve) => setTimeout(resolve, 300)); // the new rows replace the old ones as the feed delivers the change
}

describe('validation of a definition’s conversion, as the apiextensions apiserver’s', () => {
  it('needs the webhook’s client config and review versions for Webhook, and takes neither with None', async () => {
    const missing = await call('POST', CRDS, definition({ strategy: 'Webhook' }));
    expect(missing.status).toBe(422);
    expect(missing.json.details.causes).toEqual(
      expect.arrayContaining([
        { reason: 'FieldValueRequired', message: 'Required value: required when strategy is set to Webhook', field: 'spec.conversion.webhookClientConfig' },
        expect.objectContaining({ reason: 'FieldValueRequired', field: 'spec.conversion.conversionReviewVersions' }),
      ]),
    );
    const none = await call('POST', CRDS, definition({ strategy: 'None', webhook: { clientConfig: clientConfig(), conversionReviewVersions: ['v1'] } }));
    expect(none.status).toBe(422);
    expect(none.json.details.causes.map((c: any) => [c.reason, c.field])).toEqual([
      ['FieldValueForbidden', 'spec.conversion.webhookClientConfig'],
      ['FieldValueForbidden', 'spec.conversion.conversionReviewVersions'],
    ]);
    const bad = await call(
      'POST',
      CRDS,
      definition({ strategy: 'Webhook', webhook: { clientConfig: { url: 'http://127.0.0.1/convert?x=1', caBundle: Buffer.from('not a certificate').toString('base64') }, conversionReviewVersions: ['v3'] } }),
    );
    expect(bad.status).toBe(422);
    expect(bad.json.details.causes.map((c: any) => c.message)).toEqual([
      "Invalid value: \"http\": 'https' is the only allowed URL scheme; desired format: https://host[/path]",
      'Invalid value: "x=1": query parameters are not permitted in the URL',
      expect.stringContaining('data does not contain any valid RSA or ECDSA certificates'),
      'Invalid value: ["v3"]: must include at least one of v1, v1beta1',
    ]);
  });
});

describe('a custom resource converted by a webhook', () => {
  beforeAll(() => convertWith({ strategy: 'Webhook', webhook: { clientConfig: clientConfig(), conversionReviewVersions: ['v1', 'v1beta1'] } }));
  beforeEach(() => {
    webhook.mode = 'convert';
    webhook.reviews = [];
  });

  it('stores what is created in v2 in the storage version, converted by the webhook, and reads it in either version', async () => {
    const created = await call('POST', path('v2'), gadget('v2', 'first', { schedule: '* * * * *', size: 1 }));
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({ apiVersion: `${GROUP}/v2`, spec: { schedule: '* * * * *', size: 1 } });
    expect(await stored('first')).toMatchObject({ apiVersion: `${GROUP}/v1`, kind: 'Gadget', spec: { cronSpec: '* * * * *', size: 1 } });
    expect((await stored('first')).spec.schedule).toBeUndefined();
    expect(webhook.reviews[0]).toMatchObject({
      url: '/convert?timeout=30s',
      apiVersion: 'apiextensions.k8s.io/v1',
      kind: 'ConversionReview',
      request: { desiredAPIVersion: `${GROUP}/v1`, objects: [expect.objectContaining({ apiVersion: `${GROUP}/v2`, kind: 'Gadget' })] },
    });
    const inV1 = await call('GET', path('v1', 'first'));
    expect(inV1.json).toMatchObject({ apiVersion: `${GROUP}/v1`, spec: { cronSpec: '* * * * *' } });
    const inV2 = await call('GET', path('v2', 'first'));
    expect(inV2.json).toMatchObject({ apiVersion: `${GROUP}/v2`, spec: { schedule: '* * * * *' } });
    expect({ ...inV2.json.metadata, selfLink: undefined }).toEqual({ ...inV1.json.metadata, selfLink: undefined });
  });

  it('converts a whole list in one review, and its Table with the requested version’s columns', async () => {
    await call('POST', path('v1'), gadget('v1', 'second', { cronSpec: '0 * * * *' }));
    await call('POST', path('v1'), gadget('v1', 'third', { cronSpec: '0 0 * * *' }));
    webhook.reviews = [];
    const list = await call('GET', path('v2'));
    expect(list.status).toBe(200);
    expect(list.json).toMatchObject({ apiVersion: `${GROUP}/v2`, kind: 'GadgetList' });
    expect(list.json.items.map((i: any) => [i.apiVersion, i.metadata.name, i.spec.schedule])).toEqual([
      [`${GROUP}/v2`, 'first', '* * * * *'],
      [`${GROUP}/v2`, 'second', '0 * * * *'],
      [`${GROUP}/v2`, 'third', '0 0 * * *'],
    ]);
    expect(webhook.reviews.map((r) => r.request.objects.length)).toEqual([3]);
    const table = await call('GET', path('v2'), undefined, { accept: 'application/json;as=Table;v=v1;g=meta.k8s.io' });
    expect(table.json.columnDefinitions.map((c: any) => c.name)).toEqual(['Name', 'Schedule']);
    expect(table.json.rows.map((r: any) => r.cells.slice(0, 2))).toEqual([
      ['first', '* * * * *'],
      ['second', '0 * * * *'],
      ['third', '0 0 * * *'],
    ]);
    const page = await call('GET', `${path('v2')}?limit=2`);
    expect(page.json.items.map((i: any) => i.spec.schedule)).toEqual(['* * * * *', '0 * * * *']);
    expect(page.json.metadata.continue).toBeTruthy();
  });

  it('watches in v2 what is written in v1, converted as it is sent, from the initial state on', async () => {
    const watch = await WatchClient.open(server().url, `${path('v2')}?watch=1`);
    try {
      await watch.count(3); // the initial state
      const connections = webhook.connections;
      await call('POST', path('v1'), gadget('v1', 'watched', { cronSpec: '5 * * * *' }));
      await call('PATCH', path('v1', 'watched'), { spec: { cronSpec: '6 * * * *' } }, MERGE);
      await call('DELETE', path('v1', 'watched'));
      await watch.count(6);
      // each event is one review, over the connection kept open since the initial state's
      expect(webhook.connections - connections).toBe(0);
      expect(watch.events.slice(3).map((e) => [e.type, e.object.apiVersion, e.object.spec.schedule, e.object.spec.cronSpec])).toEqual([
        ['ADDED', `${GROUP}/v2`, '5 * * * *', undefined],
        ['MODIFIED', `${GROUP}/v2`, '6 * * * *', undefined],
        ['DELETED', `${GROUP}/v2`, '6 * * * *', undefined],
      ]);
      expect(watch.events[0].object).toMatchObject({ apiVersion: `${GROUP}/v2`, spec: { schedule: '* * * * *' } });
    } finally {
      watch.close();
    }
  });

  it('patches, applies and dry-runs in v2, storing v1', async () => {
    const patched = await call('PATCH', path('v2', 'second'), { spec: { schedule: '30 * * * *' } }, MERGE);
    expect(patched.status).toBe(200);
    expect(patched.json.spec).toEqual({ schedule: '30 * * * *' });
    expect((await stored('second')).spec).toEqual({ cronSpec: '30 * * * *' });
    const applied = await call('PATCH', `${path('v2', 'applied')}?fieldManager=tester`, JSON.stringify(gadget('v2', 'applied', { schedule: '1 1 * * *' })), {
      'content-type': 'application/apply-patch+yaml',
    });
    expect(applied.status).toBe(201);
    expect(applied.json.metadata.managedFields[0]).toMatchObject({ manager: 'tester', operation: 'Apply', apiVersion: `${GROUP}/v2` });
    expect((await stored('applied')).spec).toEqual({ cronSpec: '1 1 * * *' });
    const dry = await call('POST', `${path('v2')}?dryRun=All`, gadget('v2', 'dry', { schedule: '2 2 * * *' }));
    expect(dry.status).toBe(201);
    expect(dry.json.spec).toEqual({ schedule: '2 2 * * *' });
    expect(await stored('dry')).toBeUndefined();
  });

  it('compares a manager of the other version in its version, converted by the webhook, on apply', async () => {
    const APPLY = { 'content-type': 'application/apply-patch+yaml' };
    const apply = (version: string, manager: string, spec: Record<string, unknown>, force = '') =>
      call('PATCH', `${path(version, 'owned')}?fieldManager=${manager}${force}`, JSON.stringify(gadget(version, 'owned', spec)), APPLY);
    expect((await apply('v1', 'a', { cronSpec: '1 * * * *' })).status).toBe(201);
    const conflict = await apply('v2', 'b', { schedule: '2 * * * *' });
    expect(conflict.status).toBe(409);
    expect(conflict.json.details.causes).toEqual([{ reason: 'FieldManagerConflict', message: 'conflict with "a"', field: '.spec.cronSpec' }]);
    webhook.reviews = [];
    const forced = await apply('v2', 'b', { schedule: '2 * * * *' }, '&force=true');
    expect(forced.status).toBe(200);
    expect(forced.json.metadata.managedFields.map((m: any) => [m.manager, m.apiVersion])).toEqual([['b', `${GROUP}/v2`]]);
    expect(webhook.reviews.every((r) => r.request.objects.length <= 2)).toBe(true);
  });

  it('answers a Status naming the webhook’s cause when it refuses or answers badly', async () => {
    webhook.mode = 'refuse';
    const refused = await call('GET', path('v2', 'first'));
    expect(refused.status).toBe(500);
    expect(refused.json).toMatchObject({ kind: 'Status', status: 'Failure', code: 500, message: `conversion webhook for ${GROUP}/v1, Kind=Gadget failed: cannot convert gadgets today` });
    webhook.mode = 'wrong-uid';
    const wrong = await call('POST', path('v2'), gadget('v2', 'never', { schedule: '3 3 * * *' }));
    expect(wrong.status).toBe(500);
    expect(wrong.json.message).toMatch(new RegExp(`^conversion webhook for ${GROUP}/v2, Kind=Gadget failed: expected response.uid="[0-9a-f-]+", got "other"$`));
    expect(await stored('never')).toBeUndefined();
    const list = await call('GET', path('v2'));
    expect(list.status).toBe(500);
    // the storage version's objects need no call
    expect((await call('GET', path('v1', 'first'))).status).toBe(200);
    webhook.mode = 'unconverted';
    expect((await call('GET', path('v2', 'first'))).json.message).toBe(
      `conversion webhook for ${GROUP}/v1, Kind=Gadget returned invalid converted object at index 0: invalid groupVersion (expected ${GROUP}/v2, received ${GROUP}/v1)`,
    );
    webhook.mode = 'huge';
    const huge = await call('GET', path('v2', 'first'));
    expect(huge.status).toBe(500);
    expect(huge.json.message).toMatch(/^conversion webhook for .* failed: Post ".*": the response body is larger than 67108864 bytes$/);
    webhook.mode = 'bad-label';
    expect((await call('GET', path('v2', 'first'))).json.message).toMatch(
      new RegExp(`^conversion webhook for ${GROUP}/v1, Kind=Gadget returned invalid converted object at index 0: metadata.labels: Invalid value: "not a label value": `),
    );
    webhook.mode = 'relabel';
    const relabelled = await call('GET', path('v2', 'first'));
    expect(relabelled.json.metadata.labels).toEqual({ converted: 'yes' });
    expect(relabelled.json.metadata.generation).toBe((await call('GET', path('v1', 'first'))).json.metadata.generation);
  });

  it('keeps objects stored in the earlier storage version readable when the storage version changes, and writes the new one', async () => {
    const crd = (await call('GET', `${CRDS}/${NAME}`)).json;
    crd.spec.versions = crd.spec.versions.map((v: any) => ({ ...v, storage: v.name === 'v2' }));
    expect((await call('PUT', `${CRDS}/${NAME}`, crd)).status).toBe(200);
    await until(async () => (await call('GET', `${CRDS}/${NAME}`)).json.status.storedVersions.includes('v2'));
    expect((await call('GET', `${CRDS}/${NAME}`)).json.status.storedVersions).toEqual(['v1', 'v2']);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await call('GET', path('v2', 'third'))).json.spec).toEqual({ schedule: '0 0 * * *' });
    expect((await call('GET', path('v1', 'third'))).json.spec).toEqual({ cronSpec: '0 0 * * *' });
    expect((await stored('third')).apiVersion).toBe(`${GROUP}/v1`);
    const patched = await call('PATCH', path('v1', 'third'), { spec: { cronSpec: '4 4 * * *' } }, MERGE);
    expect(patched.json).toMatchObject({ apiVersion: `${GROUP}/v1`, spec: { cronSpec: '4 4 * * *' } });
    expect(await stored('third')).toMatchObject({ apiVersion: `${GROUP}/v2`, spec: { schedule: '4 4 * * *' } });
    // a write that changes nothing still moves an object to the storage version, as upstream's store writes it encoded anew
    expect((await stored('second')).apiVersion).toBe(`${GROUP}/v1`);
    const unchanged = (await call('GET', path('v2', 'second'))).json;
    expect((await call('PUT', path('v2', 'second'), unchanged)).status).toBe(200);
    expect(await stored('second')).toMatchObject({ apiVersion: `${GROUP}/v2`, spec: { schedule: '30 * * * *' } });
    crd.spec.versions = crd.spec.versions.map((v: any) => ({ ...v, storage: v.name === 'v1' }));
    delete crd.metadata.resourceVersion;
    expect((await call('PUT', `${CRDS}/${NAME}`, crd)).status).toBe(200);
    await new Promise((resolve) => setTimeout(resolve, 300));
  });

  it('fails at once with a Status when the webhook is down, or its certificate is not signed by the caBundle', async () => {
    await convertWith({ strategy: 'Webhook', webhook: { clientConfig: clientConfig({ url: 'https://127.0.0.1:1/convert' }), conversionReviewVersions: ['v1'] } });
    const started = Date.now();
    const down = await call('GET', path('v2', 'first'));
    expect(Date.now() - started).toBeLessThan(2000);
    expect(down.status).toBe(500);
    expect(down.json.message).toBe(`conversion webhook for ${GROUP}/v1, Kind=Gadget failed: Post "https://127.0.0.1:1/convert?timeout=30s": connect ECONNREFUSED 127.0.0.1:1`);
    await convertWith({ strategy: 'Webhook', webhook: { clientConfig: clientConfig({ caBundle: otherCaBundle }), conversionReviewVersions: ['v1'] } });
    const untrusted = await call('GET', path('v2', 'first'));
    expect(untrusted.status).toBe(500);
    expect(untrusted.json.message).toMatch(/^conversion webhook for .* failed: Post ".*": .*(certificate|self-signed|issuer)/);
    await convertWith({
      strategy: 'Webhook',
      webhook: { clientConfig: { service: { namespace: 'default', name: 'converter', path: '/convert' } }, conversionReviewVersions: ['v1'] },
    });
    const crd = (await call('GET', `${CRDS}/${NAME}`)).json;
    expect(crd.spec.conversion.webhook.clientConfig.service.port).toBe(443);
    const service = await call('GET', path('v2', 'first'));
    expect(service.json.message).toBe(
      `conversion webhook for ${GROUP}/v1, Kind=Gadget failed: Post "https://converter.default.svc:443/convert?timeout=30s": no endpoints available for service "converter"`,
    );
    const watch = await WatchClient.open(server().url, `${path('v2')}?watch=1`);
    await watch.count(1);
    expect(watch.events[0]).toMatchObject({ type: 'ERROR', object: { kind: 'Status', code: 500 } });
    watch.close();
  });

  it('gives up on a webhook that does not answer after 30 seconds, as upstream', async () => {
    await convertWith({ strategy: 'Webhook', webhook: { clientConfig: clientConfig(), conversionReviewVersions: ['v1'] } });
    webhook.mode = 'hang';
    const started = Date.now();
    const hung = await call('GET', path('v2', 'first'));
    const took = Date.now() - started;
    expect(took).toBeGreaterThanOrEqual(29_000);
    expect(took).toBeLessThan(35_000);
    expect(hung.status).toBe(500);
    expect(hung.json.message).toMatch(/failed: Post ".*\?timeout=30s": context deadline exceeded/);
  }, 45_000);
});

describe('an apiextensions.k8s.io/v1beta1 definition with a conversion webhook', () => {
  it('is read in v1 with the webhook under conversion.webhook, v1beta1 reviews by default, and back', async () => {
    const v1beta1 = {
      apiVersion: 'apiextensions.k8s.io/v1beta1',
      kind: 'CustomResourceDefinition',
      metadata: { name: 'doodads.webhook.example.com' },
      spec: {
        group: GROUP,
        scope: 'Namespaced',
        names: { plural: 'doodads', kind: 'Doodad' },
        validation: OPEN,
        versions: [
          { name: 'v1', served: true, storage: true },
          { name: 'v2', served: true, storage: false },
        ],
        conversion: { strategy: 'Webhook', webhookClientConfig: clientConfig() },
      },
    };
    const created = await call('POST', '/apis/apiextensions.k8s.io/v1beta1/customresourcedefinitions', v1beta1);
    expect(created.status).toBe(201);
    expect(created.json.spec.conversion).toEqual({ strategy: 'Webhook', webhookClientConfig: clientConfig(), conversionReviewVersions: ['v1beta1'] });
    const inV1 = await call('GET', `${CRDS}/doodads.webhook.example.com`);
    expect(inV1.json.spec.conversion).toEqual({ strategy: 'Webhook', webhook: { clientConfig: clientConfig(), conversionReviewVersions: ['v1beta1'] } });
    await until(async () => (await call('GET', `/apis/${GROUP}/v2/namespaces/default/doodads`)).status === 200);
    webhook.mode = 'convert';
    webhook.reviews = [];
    const doodad = { apiVersion: `${GROUP}/v2`, kind: 'Doodad', metadata: { name: 'one' }, spec: { schedule: '9 9 * * *' } };
    expect((await call('POST', `/apis/${GROUP}/v2/namespaces/default/doodads`, doodad)).status).toBe(201);
    expect(webhook.reviews[0]).toMatchObject({ apiVersion: 'apiextensions.k8s.io/v1beta1', request: { desiredAPIVersion: `${GROUP}/v1` } });
    webhook.mode = 'untyped'; // a v1beta1 answer's apiVersion and kind are not checked
    expect((await call('GET', `/apis/${GROUP}/v2/namespaces/default/doodads/one`)).status).toBe(200);
    await call('DELETE', `${CRDS}/doodads.webhook.example.com`);
  });
});

describe.each(KUBECTLS.filter((client) => client.tag === 'path'))('kubectl ($tag) with a custom resource converted by a webhook', (client) => {
  beforeAll(() => convertWith({ strategy: 'Webhook', webhook: { clientConfig: clientConfig(), conversionReviewVersions: ['v1'] } }));
  beforeEach(() => {
    webhook.mode = 'convert';
  });

  it('applies and gets it in both versions', async () => {
    const manifest = (version: string, field: string, value: string) =>
      `apiVersion: ${GROUP}/${version}\nkind: Gadget\nmetadata:\n  name: kubectl-made\n  namespace: default\nspec:\n  ${field}: "${value}"\n`;
    const applied = await kubectl(client, server().url, ['apply', '-f', '-'], manifest('v2', 'schedule', '7 7 * * *'));
    expect(applied.stderr).toBe('');
    expect(applied.stdout).toContain('gadget.webhook.example.com/kubectl-made created');
    expect((await stored('kubectl-made')).spec.cronSpec).toBe('7 7 * * *');
    const inV1 = await kubectl(client, server().url, ['get', `gadgets.v1.${GROUP}`, 'kubectl-made', '-n', 'default']);
    expect(inV1.stdout.split('\n')[1]).toMatch(/^kubectl-made\s+7 7 \* \* \*/);
    const inV2 = await kubectl(client, server().url, ['get', `gadgets.v2.${GROUP}`, 'kubectl-made', '-n', 'default', '-o', 'jsonpath={.apiVersion} {.spec.schedule}']);
    expect(inV2.stdout).toBe(`${GROUP}/v2 7 7 * * *`);
    const reapplied = await kubectl(client, server().url, ['apply', '-f', '-'], manifest('v1', 'cronSpec', '8 8 * * *'));
    expect(reapplied.stdout).toContain('configured');
    const after = await kubectl(client, server().url, ['get', `gadgets.v2.${GROUP}`, 'kubectl-made', '-n', 'default', '-o', 'jsonpath={.spec.schedule}']);
    expect(after.stdout).toBe('8 8 * * *');
    const serverSide = await kubectl(client, server().url, ['apply', '--server-side', '--force-conflicts', '-f', '-'], manifest('v2', 'schedule', '9 9 * * *'));
    expect(serverSide.stderr).toBe('');
    expect((await stored('kubectl-made')).spec.cronSpec).toBe('9 9 * * *');
  });
});

describe('deleting a definition converted by a webhook', () => {
  it('deletes its objects through the storage version and goes', async () => {
    await convertWith({ strategy: 'Webhook', webhook: { clientConfig: clientConfig(), conversionReviewVersions: ['v1'] } });
    webhook.mode = 'convert';
    expect((await call('DELETE', `${CRDS}/${NAME}`)).status).toBe(200);
    await until(async () => (await call('GET', `${CRDS}/${NAME}`)).status === 404);
    expect(await server().sql(`SELECT name FROM objects WHERE api_group = $1`, [GROUP])).toEqual([]);
  });
});
