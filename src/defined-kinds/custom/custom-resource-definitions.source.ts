import { KubeObject } from '../../apimachinery/meta/kube-object';
import { byVersionPriority } from '../../apimachinery/meta/version-priority';
import { CLEANUP_FINALIZER, CrdScale, CrdVersion, CustomResourceDefinition } from '../../apis/apiextensions/customresourcedefinition/crd.schema';
import { setCondition } from '../../apis/apiextensions/customresourcedefinition/crd.conditions';
import { defineKind, scaleSubresource, statusSubresource } from '../../registry/define-kind';
import { AUTOSCALING_SCALE } from '../../registry/scale/scale-versions';
import { ALL_VERBS, KindDefinition, SubresourceDefinition, WireForm } from '../../registry/kind-definition';
import { DefinitionSource } from '../definition-source';
import { definedObjectStrategy, SCHEMALESS } from '../defined-object-strategy';
import { defaultAndPrune } from '../../apis/apiextensions/schema/schema-defaults-pruning';
import { SchemaValidator } from '../../apis/apiextensions/schema/schema-validation';
import { SchemaNode } from '../../apis/apiextensions/schema/structural-schema';
import { printerColumns } from './printer-columns';
import { parseJsonPath } from './simple-json-path';
import { noneConversion } from './none-conversion';
import { ConversionWebhook, webhookEndpoint } from './webhook-conversion';
import { copyJson } from '../../apimachinery/meta/json-value';

/**
 * How the current apiserver serves custom objects: JSON and YAML (no protobuf form), no strategic merge patch (no
 * Go type says how to merge their lists), lists as unstructured JSON writes them (members sorted, items with their
 * kind), and 410 `Expired` for a too-old watch.
 */
const CUSTOM_WIRE: WireForm = {
  mediaTypes: ['application/json', 'application/yaml'],
  strategicMerge: false,
  listMembers: ['apiVersion', 'items', 'kind', 'metadata'],
  itemTypeMeta: true,
  tooOldWatchReason: 'Expired',
};

/** `.spec.replicas` as field names; undefined for a path that is not a chain of fields. */
function fieldPath(jsonPath: string | undefined): string[] | undefined {
  const steps = parseJsonPath(jsonPath ?? '');
  if (!steps?.length || !steps.every((step) => 'field' in step)) return undefined;
  return steps.map((step) => (step as { field: string }).field);
}

/** The `scale` subresource a version declares: an autoscaling/v1 Scale of the fields its paths name. */
function scaleOf(scale: CrdScale | undefined): SubresourceDefinition[] {
  const spec = fieldPath(scale?.specReplicasPath);
  const status = fieldPath(scale?.statusReplicasPath);
  if (!spec || !status) return [];
  const selector = fieldPath(scale?.labelSelectorPath);
  return [scaleSubresource({ version: AUTOSCALING_SCALE, writeErrorsAsConflict: false, paths: { spec, status, ...(selector && { selector }) } })];
}

/**
 * What a request of a deprecated version is told: the version's own warning, or, as the apiextensions apiserver
 * words its default, that it is deprecated and which newer served version not deprecated to use instead.
 */
function deprecationWarning(crd: CustomResourceDefinition, version: CrdVersion): string | undefined {
  if (!version.deprecated) return undefined;
  if (version.deprecationWarning !== undefined) return version.deprecationWarning;
  const { group = '', names = {} } = crd.spec;
  const deprecated = `${group}/${version.name} ${names.kind} is deprecated`;
  const newer = (crd.spec.versions ?? [])
    .filter((other) => other.served && !other.deprecated && other.name && byVersionPriority(other.name, version.name ?? '') < 0)
    .map((other) => other.name as string)
    .sort(byVersionPriority);
  return newer.length === 0 ? deprecated : `${deprecated}; use ${group}/${newer[0]} ${names.kind}`;
}

/**
 * How a served version's objects are converted to and from the storage version: by the definition's webhook, or,
 * with the None strategy, by rewriting the apiVersion (none for the storage version itself).
 */
function conversionOf(crd: CustomResourceDefinition, version: CrdVersion, webhook: ConversionWebhook | undefined): Partial<KindDefinition> {
  const storage = (crd.spec.versions ?? []).find((v) => v.storage)?.name;
  if (!storage) return {};
  const apiVersion = (name: string | undefined) => `${crd.spec.group}/${name}`;
  if (webhook) return { storageConversion: webhook.versionConversion(apiVersion(version.name), apiVersion(storage)) };
  return storage === version.name ? {} : { conversion: noneConversion(apiVersion(version.name), apiVersion(storage)) };
}

/** The kind row of one served version of a definition. */
function versionKind(crd: CustomResourceDefinition, version: CrdVersion, webhook: ConversionWebhook | undefined): KindDefinition {
  const { group = '', names = {}, scope } = crd.spec;
  const kind = names.kind ?? '';
  const schema = (version.schema?.openAPIV3Schema as SchemaNode | undefined) ?? SCHEMALESS;
  const validator = new SchemaValidator(schema);
  const hasStatus = version.subresources?.status !== undefined;
  const strategy = definedObjectStrategy({ group, version: version.name ?? '', kind, schema, generation: 'content' }, {
    applyDefaults: (object) => defaultAndPrune(object, schema),
    prunedFields: (object) => {
      const pruned: string[] = [];
      defaultAndPrune(copyJson(object), schema, pruned);
      return pruned;
    },
    validate: (object) => validator.errors(object),
    validateUpdate: (object) => validator.errors(object),
    ...(hasStatus && { status: { keepsLabels: false, validate: (object: KubeObject) => validator.errors(object) } }),
  });
  const terminating = crd.metadata.deletionTimestamp !== undefined;
  return defineKind(
    { group, version: version.name ?? '' },
    {
      resource: names.plural ?? '',
      kind,
      listKind: names.listKind ?? `${kind}List`,
      singularName: names.singular,
      namespaced: scope === 'Namespaced',
      shortNames: names.shortNames ?? [],
      categories: names.categories ?? [],
      // a terminating definition's objects are being deleted: no new ones (the apiserver answers 405)
      verbs: terminating ? ALL_VERBS.filter((verb) => verb !== 'create') : ALL_VERBS,
      subresources: [...(hasStatus ? [statusSubresource(kind)] : []), ...scaleOf(version.subresources?.scale)],
      strategy,
      columns: printerColumns(version.additionalPrinterColumns),
      wire: CUSTOM_WIRE,
      deprecationWarning: deprecationWarning(crd, version),
      ...conversionOf(crd, version, webhook),
    },
  );
}

/** CustomResourceDefinitions as definitions: each serves its resource in every served version. */
export const CUSTOM_RESOURCE_DEFINITIONS: DefinitionSource = {
  stored: { group: 'apiextensions.k8s.io', version: 'v1', resource: 'customresourcedefinitions' },
  refused: (definition, resource) => {
    const crd = definition as CustomResourceDefinition;
    setCondition(crd, { type: 'NamesAccepted', status: 'False', reason: 'PluralConflict', message: `"${resource}" is already in use` });
    setCondition(crd, { type: 'Established', status: 'False', reason: 'NotAccepted', message: 'not all names are accepted' });
  },
  cleanup: {
    finalizer: CLEANUP_FINALIZER,
    inProgress: (definition) =>
      setCondition(definition as CustomResourceDefinition, {
        type: 'Terminating',
        status: 'True',
        reason: 'InstanceDeletionInProgress',
        message: 'CustomResource deletion is in progress',
      }),
  },
  kindsOf(definition: KubeObject): KindDefinition[] {
    const crd = definition as CustomResourceDefinition;
    if (!crd.spec?.group || !crd.spec.names?.plural || !crd.spec.names.kind) return [];
    const endpoint = crd.spec.conversion?.strategy === 'Webhook' ? webhookEndpoint(crd) : undefined;
    const webhook = endpoint && new ConversionWebhook(endpoint, crd.spec.conversion?.webhook?.conversionReviewVersions ?? []);
    // the storage version's row first: the one a definition's objects are found and cleaned up through, as upstream
    // reads them in the storage version (with no conversion for the objects stored in it)
    const served = (crd.spec.versions ?? []).filter((version) => version.served && version.name);
    served.sort((a, b) => Number(!!b.storage) - Number(!!a.storage));
    return served.map((version) => versionKind(crd, version, webhook));
  },
};
