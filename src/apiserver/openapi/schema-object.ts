/** An OpenAPI schema object (v2's and v3's are the same for what this server declares). */
export type JsonSchema = Record<string, unknown>;
