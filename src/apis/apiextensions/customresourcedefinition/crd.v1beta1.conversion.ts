import { deepEqual } from '../../../apimachinery/meta/deep-equal';
import { KubeObject } from '../../../apimachinery/meta/kube-object';
import { VersionConversion } from '../../../registry/kind-definition';

type Spec = Record<string, unknown> & { versions?: Record<string, unknown>[]; conversion?: Record<string, unknown> };
type Column = Record<string, unknown>;

/** The schema of a v1beta1 definition that gives none: its objects are kept as sent (v1beta1's preserveUnknownFields). */
const SCHEMALESS = { openAPIV3Schema: { type: 'object', 'x-kubernetes-preserve-unknown-fields': true } };

const renamed = (columns: Column[] | undefined, from: string, to: string) =>
  columns?.map(({ [from]: path, ...column }) => ({ ...column, ...(path !== undefined && { [to]: path }) }));

/**
 * v1beta1's conversion to v1's: the webhook's client config and review versions go under `webhook`; a webhook that
 * names no review versions gets v1beta1's default, v1beta1 (the ConversionReview v1beta1 defined).
 */
function conversionToV1(conversion: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!conversion) return conversion;
  const { webhookClientConfig: clientConfig, conversionReviewVersions, ...rest } = conversion;
  const reviewVersions = conversionReviewVersions ?? (rest.strategy === 'Webhook' ? ['v1beta1'] : undefined);
  if (clientConfig === undefined && reviewVersions === undefined) return rest;
  return { ...rest, webhook: { ...(clientConfig !== undefined && { clientConfig }), ...(reviewVersions !== undefined && { conversionReviewVersions: reviewVersions }) } };
}

/** v1's conversion to v1beta1's: the webhook's fields one level up. */
function conversionToV1beta1(conversion: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!conversion) return conversion;
  const { webhook, ...rest } = conversion as { webhook?: { clientConfig?: unknown; conversionReviewVersions?: unknown } };
  if (!webhook) return rest;
  const { clientConfig, conversionReviewVersions } = webhook;
  return { ...rest, ...(clientConfig !== undefined && { webhookClientConfig: clientConfig }), ...(conversionReviewVersions !== undefined && { conversionReviewVersions }) };
}

/** v1beta1 to v1: the top-level version, schema, subresources and columns go to each version (`JSONPath` is `jsonPath`). */
function toV1(object: KubeObject): KubeObject {
  const { version, validation, subresources, additionalPrinterColumns, preserveUnknownFields: _preserve, ...spec } = (object.spec ?? {}) as Spec;
  const declared = spec.versions?.length ? spec.versions : version ? [{ name: version, served: true, storage: true }] : [];
  spec.versions = declared.map((v) => {
    const out: Record<string, unknown> = { ...v };
    out.schema = v.schema ?? validation ?? SCHEMALESS;
    if (v.subresources ?? subresources) out.subresources = v.subresources ?? subresources;
    const columns = renamed((v.additionalPrinterColumns ?? additionalPrinterColumns) as Column[] | undefined, 'JSONPath', 'jsonPath');
    if (columns) out.additionalPrinterColumns = columns;
    return out;
  });
  if (spec.conversion) spec.conversion = conversionToV1(spec.conversion);
  return { ...object, spec };
}

/** What every version has alike, hoisted to the top level as v1beta1 writes it; undefined when they differ. */
function common(versions: Record<string, unknown>[], field: string): unknown {
  const first = versions[0]?.[field];
  return versions.every((v) => deepEqual(v[field], first)) ? first : undefined;
}

/** v1 to v1beta1: `spec.version` is the first version; what all versions share is written once at the top level. */
function toV1beta1(object: KubeObject): KubeObject {
  const spec = { ...((object.spec ?? {}) as Spec) };
  const versions: Record<string, unknown>[] = (spec.versions ?? []).map((v) => ({
    ...v,
    additionalPrinterColumns: renamed(v.additionalPrinterColumns as Column[] | undefined, 'jsonPath', 'JSONPath'),
  }));
  const hoisted: Record<string, unknown> = { version: versions[0]?.name };
  for (const [field, top] of [['schema', 'validation'], ['subresources', 'subresources'], ['additionalPrinterColumns', 'additionalPrinterColumns']]) {
    const shared = common(versions, field);
    if (shared === undefined) continue;
    hoisted[top] = shared;
    for (const v of versions) delete v[field];
  }
  for (const v of versions) if (v.additionalPrinterColumns === undefined) delete v.additionalPrinterColumns;
  if (spec.conversion) spec.conversion = conversionToV1beta1(spec.conversion);
  return { ...object, spec: { group: spec.group, ...hoisted, ...spec, versions, preserveUnknownFields: false } };
}

/** CustomResourceDefinitions in apiextensions.k8s.io/v1beta1, stored as v1. */
export const CRD_V1BETA1_CONVERSION: VersionConversion = { toStored: toV1, fromStored: toV1beta1 };
