import { apiErrors } from '../../apimachinery/errors/status-error';
import { KubeObject } from '../../apimachinery/meta/kube-object';
import { StructSchema } from '../../apimachinery/schema/schema';
import { VersionConversion } from '../../registry/kind-definition';
import { EXTENSIONS_V1BETA1 } from '../extensions/extensions.group';

const STORED_API_VERSION = EXTENSIONS_V1BETA1.apiVersion as string;
const INT64_MAX = 2n ** 63n - 1n;

/** What a version keeps of the stored form elsewhere (extensions' own fields, in annotations); both work on a copy. */
export interface OwnFields {
  toStored(object: KubeObject): void;
  fromStored(object: KubeObject): void;
  /** whether an object's stored texts show it has none of the fields moved, so that it serves as it is */
  noneIn(texts: { metadata: string; rest: string }): boolean;
}

/** A copy of the object to convert: its own metadata, annotations and spec, the rest shared. */
function copied(object: KubeObject, apiVersion: string): KubeObject {
  const copy: KubeObject = { ...object, metadata: { ...object.metadata } };
  if (copy.apiVersion !== undefined) copy.apiVersion = apiVersion;
  if (copy.metadata.annotations) copy.metadata.annotations = { ...copy.metadata.annotations };
  if (copy.spec !== undefined) copy.spec = { ...(copy.spec as object) };
  return copy;
}

/**
 * An apps version of a kind stored in its extensions/v1beta1 form (upstream's conversions through the internal
 * type): the same fields, but for those each of `own` moves or reads otherwise.
 */
export function storedAsExtensions(apiVersion: string, storedShape: StructSchema, ...own: OwnFields[]): VersionConversion {
  return {
    toStored(object) {
      const stored = copied(object, STORED_API_VERSION);
      for (const fields of own) fields.toStored(stored);
      return stored;
    },
    fromStored(object) {
      const served = copied(object, apiVersion);
      for (const fields of own) fields.fromStored(served);
      return served;
    },
    storedShape,
    // the versions differ in nothing else, and the apiVersion is written apart from the stored text
    keepsStoredText: (texts) => own.every((fields) => fields.noneIn(texts)),
  };
}

/** An annotation holding an int64 field of the stored form, as upstream's conversions parse it (a 400 otherwise). */
export function annotatedInteger(object: KubeObject, annotation: string): number | undefined {
  const text = object.metadata.annotations?.[annotation];
  if (text === undefined) return undefined;
  if (!/^[+-]?\d+$/.test(text) || BigInt(text) > INT64_MAX || BigInt(text) < -INT64_MAX - 1n) {
    throw apiErrors.badRequest(`failed to parse annotation[${annotation}]=${text} as int64`);
  }
  return Number(text);
}

/** Removes an annotation, and the annotations when it was the last. */
export function removeAnnotation(object: KubeObject, annotation: string): void {
  const annotations = object.metadata.annotations;
  if (!annotations) return;
  delete annotations[annotation];
  if (Object.keys(annotations).length === 0) delete object.metadata.annotations;
}
