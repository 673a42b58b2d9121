export const JSON_TYPE = 'application/json';
export const YAML_TYPE = 'application/yaml';
export const PROTOBUF_TYPE = 'application/vnd.kubernetes.protobuf';

export const JSON_PATCH_TYPE = 'application/json-patch+json';
export const MERGE_PATCH_TYPE = 'application/merge-patch+json';
export const STRATEGIC_MERGE_PATCH_TYPE = 'application/strategic-merge-patch+json';
/** server-side apply: a YAML (or JSON) configuration of the object */
export const APPLY_PATCH_TYPE = 'application/apply-patch+yaml';

/** The response types this server can write, in order of preference. */
export const RESPONSE_TYPES = [JSON_TYPE, YAML_TYPE, PROTOBUF_TYPE] as const;
/** The types a watch can stream in (YAML cannot). */
export const WATCH_TYPES: readonly ResponseType[] = [JSON_TYPE, PROTOBUF_TYPE];
export const WATCH_RESPONSE_TYPES = WATCH_TYPES.map((type) => `${type};stream=watch`);
/** The request body types this server can read (besides the patch types on PATCH). */
export const BODY_TYPES = [JSON_TYPE, YAML_TYPE, PROTOBUF_TYPE] as const;

export type ResponseType = (typeof RESPONSE_TYPES)[number];

/** The bare media type of a Content-Type header: lower-cased, without parameters. */
export function bareType(header: string | undefined): string {
  return (header ?? '').split(';')[0].trim().toLowerCase();
}
