import { randomUUID } from 'node:crypto';
import { StatusError } from '../../apimachinery/errors/status-error';
import { isPlainObject, KubeObject, ObjectMeta } from '../../apimachinery/meta/kube-object';
import { deepEqual } from '../../apimachinery/meta/deep-equal';
import { validateAnnotations, validateLabels } from '../../apimachinery/meta/object-meta-validation';
import { StorageConversion } from '../../registry/kind-definition';
import { CONVERSION_REVIEW_VERSIONS, caCertificates } from '../../apis/apiextensions/customresourcedefinition/crd.conversion.validation';
import { CustomResourceDefinition } from '../../apis/apiextensions/customresourcedefinition/crd.schema';
import { CONVERSION_WEBHOOK_TIMEOUT_MS, postJson, WebhookEndpoint, webhookConnections } from './webhook-call';
import { copyJson } from '../../apimachinery/meta/json-value';

/** Go's GroupVersionKind as its String() writes it, as the apiserver's messages name an object's type. */
const gvk = (object: KubeObject) => `${object.apiVersion}, Kind=${object.kind}`;

/** The metadata Go compares between an object sent and the one converted from it. */
const IDENTITY: readonly (keyof ObjectMeta)[] = ['name', 'namespace', 'uid'];

/**
 * Where a definition's webhook is called. A service is reached through its endpoints, which this server neither
 * keeps nor routes to: the call fails as the apiserver's fails for a service without endpoints.
 */
export function webhookEndpoint(crd: CustomResourceDefinition): WebhookEndpoint | undefined {
  const config = crd.spec.conversion?.webhook?.clientConfig;
  if (!config) return undefined;
  const ca = config.caBundle?.trim() ? caCertificates(config.caBundle) : undefined;
  const timeout = `timeout=${CONVERSION_WEBHOOK_TIMEOUT_MS / 1000}s`;
  if (config.url) return { url: `${config.url}${config.url.includes('?') ? '&' : '?'}${timeout}`, ca };
  const { name = '', namespace = '', port = 443, path = '' } = config.service ?? {};
  return { url: `https://${name}.${namespace}.svc:${port}${path}?${timeout}`, ca, unreachable: `no endpoints available for service ${JSON.stringify(name)}` };
}

/** What went wrong in a conversion, as the apiserver answers it: 500 with the cause in the message. */
const conversionFailure = (message: string) => new StatusError(500, undefined, message);

/** The converted objects a ConversionReview response carries, checked as the apiserver checks them. */
function convertedObjects(reviewVersion: string, uid: string, answer: unknown): unknown[] {
  const expected = `apiextensions.k8s.io/${reviewVersion}, Kind=ConversionReview`;
  const review = isPlainObject(answer) ? answer : {};
  const got = `${String(review.apiVersion ?? '')}, Kind=${String(review.kind ?? '')}`;
  // v1beta1 answers were never checked for their type or uid, which upstream keeps for compatibility
  if (reviewVersion === 'v1' && got !== expected) throw new Error(`expected webhook response of ${expected}, got ${got}`);
  const response = review.response;
  if (!isPlainObject(response)) throw new Error('no response provided');
  if (reviewVersion === 'v1' && response.uid !== uid) throw new Error(`expected response.uid=${JSON.stringify(uid)}, got ${JSON.stringify(response.uid ?? '')}`);
  const result = isPlainObject(response.result) ? response.result : {};
  if (result.status !== 'Success') {
    throw new Error(typeof result.message === 'string' && result.message ? result.message : `response.result.status was '${String(result.status ?? '')}', not 'Success'`);
  }
  return Array.isArray(response.convertedObjects) ? response.convertedObjects : [];
}

/**
 * The converted object in place of the one sent: it must be of the desired version, the same kind and the same
 * object; its metadata is the one sent but for the labels and annotations the webhook may change.
 */
function restored(sent: KubeObject, converted: unknown, desired: string): KubeObject {
  if (!isPlainObject(converted)) throw new Error('invalid type, expected an object');
  if (converted.apiVersion !== desired) throw new Error(`invalid groupVersion (expected ${desired}, received ${String(converted.apiVersion ?? '')})`);
  if (converted.kind !== sent.kind) throw new Error(`invalid kind (expected ${sent.kind}, received ${String(converted.kind ?? '')})`);
  const meta = isPlainObject(converted.metadata) ? (converted.metadata as ObjectMeta) : undefined;
  if (!meta) throw new Error('missing metadata in converted object');
  for (const field of IDENTITY) {
    if ((meta[field] ?? '') !== (sent.metadata[field] ?? '')) throw new Error(`must have the same ${field}: ${String(sent.metadata[field] ?? '')} != ${String(meta[field] ?? '')}`);
  }
  const metadata = copyJson(sent.metadata);
  for (const field of ['labels', 'annotations'] as const) {
    const value = meta[field];
    if (value === undefined || value === null) delete metadata[field];
    else if (isPlainObject(value) && Object.values(value).every((v) => typeof v === 'string')) metadata[field] = value as Record<string, string>;
    else throw new Error(`metadata.${field} must be a map of strings`);
  }
  const changed = (field: 'labels' | 'annotations') => !deepEqual(metadata[field], sent.metadata[field]);
  const invalid = [
    ...(changed('labels') ? validateLabels(metadata.labels, 'metadata.labels') : []),
    ...(changed('annotations') ? validateAnnotations(metadata.annotations, 'metadata.annotations') : []),
  ].map((error) => `${error.field}: ${error.message}`);
  if (invalid.length > 0) throw new Error(invalid.length === 1 ? invalid[0] : `[${invalid.join(', ')}]`);
  return { ...(converted as KubeObject), metadata };
}

/**
 * The conversion webhook of a definition (the apiextensions apiserver's webhookConverter): the objects not yet in
 * the desired version go to the webhook in one ConversionReview, of the first review version it accepts that this
 * server sends; the answer is checked, and a failure is a 500 naming the webhook's cause.
 */
export class ConversionWebhook {
  private readonly reviewVersion: string | undefined;
  private readonly connections = webhookConnections();

  constructor(
    private readonly endpoint: WebhookEndpoint,
    reviewVersions: readonly string[],
  ) {
    this.reviewVersion = reviewVersions.find((version) => CONVERSION_REVIEW_VERSIONS.includes(version));
  }

  async convert(objects: KubeObject[], desired: string): Promise<KubeObject[]> {
    const sent = objects.filter((object) => object.apiVersion !== desired);
    if (sent.length === 0) return objects;
    const reviewVersion = this.reviewVersion;
    if (!reviewVersion) throw conversionFailure('no supported conversion review versions');
    const uid = randomUUID();
    const review = { kind: 'ConversionReview', apiVersion: `apiextensions.k8s.io/${reviewVersion}`, request: { uid, desiredAPIVersion: desired, objects: sent } };
    const type = gvk(sent[0]);
    let converted: unknown[];
    try {
      converted = convertedObjects(reviewVersion, uid, await postJson(this.endpoint, this.connections, review));
    } catch (error) {
      throw conversionFailure(`conversion webhook for ${type} failed: ${(error as Error).message}`);
    }
    if (converted.length !== sent.length) throw conversionFailure(`conversion webhook for ${type} returned ${converted.length} objects, expected ${sent.length}`);
    let index = 0;
    return objects.map((object) => {
      if (object.apiVersion === desired) return object;
      const at = index++;
      try {
        return restored(object, converted[at], desired);
      } catch (error) {
        throw conversionFailure(`conversion webhook for ${type} returned invalid converted object at index ${at}: ${(error as Error).message}`);
      }
    });
  }

  /** The conversion of one served version, to and from the storage version. */
  versionConversion(served: string, storage: string): StorageConversion {
    return {
      fromStored: (objects) => this.convert(objects, served),
      toStored: async (object) => (await this.convert([object], storage))[0],
      storedIn: storage,
    };
  }
}
