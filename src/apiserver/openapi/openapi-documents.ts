import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { listOf } from '../../apimachinery/meta/object-meta-schema';
import { catalogueRevision } from '../../apimachinery/schema/go-packages';
import { StructSchema } from '../../apimachinery/schema/schema';
import { KindDefinition } from '../../registry/kind-definition';
import { KindRegistry } from '../../registry/kind-registry';
import { encodeGnosticDocument } from './gnostic';
import { definitionName, leafDefinitions, reachableTypes, SchemaWriter } from './json-schema';
import { JsonSchema } from './schema-object';
import { kindPaths, PathOperations } from './operations';
import { v2PathItem, v3PathItem } from './openapi-writers';

/** A document as served: its bytes and the ETag that names them. */
export interface ServedDocument {
  body: Buffer;
  etag: string;
}

type Gvk = { group: string; version: string; kind: string };

const INFO = { title: 'pgkube', version: 'v1.7.4' };

const served = (body: Buffer): ServedDocument => ({ body, etag: `"${createHash('sha256').update(body).digest('hex').toUpperCase()}"` });
const servedJson = (document: unknown) => served(Buffer.from(JSON.stringify(document)));

/** `api/v1`, `apis/extensions/v1beta1`: where a group version's OpenAPI v3 document is served. */
export const groupVersionPath = (def: Pick<KindDefinition, 'group' | 'version'>) => (def.group ? `apis/${def.group}/${def.version}` : `api/${def.version}`);

interface Documents {
  key: string;
  v2: ServedDocument;
  v2Protobuf: ServedDocument;
  v3: Map<string, ServedDocument>;
  v3Index: ServedDocument;
}

/**
 * The OpenAPI documents, generated from the served kinds and their declared types, once for each state of the kind
 * registry: v2 (JSON and gnostic protobuf, which kubectl 1.20 reads) and v3 (an index and one document per group
 * version, which current kubectl reads).
 */
@Injectable()
export class OpenApiDocuments {
  private documents?: Documents;

  constructor(private readonly registry: KindRegistry) {}

  v2(): ServedDocument {
    return this.current().v2;
  }

  v2Protobuf(): ServedDocument {
    return this.current().v2Protobuf;
  }

  v3Index(): ServedDocument {
    return this.current().v3Index;
  }

  /** The v3 document of a group version path (`apis/extensions/v1beta1`); undefined for one not served. */
  v3(path: string): ServedDocument | undefined {
    return this.current().v3.get(path);
  }

  private current(): Documents {
    const kinds = this.registry.groupVersions().flatMap((gv) => this.registry.kindsOf(gv.group, gv.version));
    const key = `${catalogueRevision()}/${this.registry.revision}`;
    if (this.documents?.key !== key) this.documents = build(key, kinds);
    return this.documents;
  }
}

function build(key: string, kinds: KindDefinition[]): Documents {
  const gvks = typeGvks(kinds);
  const v2Writer = new SchemaWriter('#/definitions/', false);
  const paths = kinds.flatMap(kindPaths);
  const v2Document = {
    swagger: '2.0',
    info: INFO,
    paths: Object.fromEntries(paths.map((path) => [path.path, v2PathItem(path, v2Writer)])),
    definitions: definitions(paths, v2Writer, gvks),
  };
  const v3Writer = new SchemaWriter('#/components/schemas/', true);
  const v3 = new Map<string, ServedDocument>();
  for (const gvPath of new Set(kinds.map(groupVersionPath))) {
    const gvPaths = kinds.filter((def) => groupVersionPath(def) === gvPath).flatMap(kindPaths);
    v3.set(
      gvPath,
      servedJson({
        openapi: '3.0.0',
        info: INFO,
        paths: Object.fromEntries(gvPaths.map((path) => [path.path, v3PathItem(path, v3Writer)])),
        components: { schemas: definitions(gvPaths, v3Writer, gvks) },
      }),
    );
  }
  const index = Object.fromEntries([...v3].map(([gvPath, document]) => [gvPath, { serverRelativeURL: `/openapi/v3/${gvPath}?hash=${document.etag.slice(1, -1)}` }]));
  return {
    key,
    v2: servedJson(v2Document),
    v2Protobuf: served(encodeGnosticDocument(v2Document)),
    v3,
    v3Index: servedJson({ paths: index }),
  };
}

/** The group-version-kinds each declared type is served as: kinds, their lists, and the kinds of subresources. */
function typeGvks(kinds: KindDefinition[]): Map<StructSchema, Gvk[]> {
  const gvks = new Map<StructSchema, Gvk[]>();
  const add = (type: StructSchema | undefined, gvk: Gvk) => {
    if (!type) return;
    const known = gvks.get(type) ?? [];
    if (!known.some((k) => k.group === gvk.group && k.version === gvk.version && k.kind === gvk.kind)) gvks.set(type, [...known, gvk]);
  };
  for (const def of kinds) {
    const gv = { group: def.group, version: def.version };
    add(def.strategy.shape, { ...gv, kind: def.kind });
    add(listOf(def.strategy.shape), { ...gv, kind: def.listKind });
    for (const subresource of def.subresources) {
      const target = subresource.scale?.version.kind ?? subresource.rollback?.requestKind ?? subresource.token?.requestKind;
      if (target) add(target.strategy.shape, { group: target.group, version: target.version, kind: target.kind });
    }
  }
  return gvks;
}

/** The definitions of every type the paths use, sorted by name as the apiserver sorts them. */
function definitions(paths: PathOperations[], writer: SchemaWriter, gvks: Map<StructSchema, Gvk[]>): Record<string, JsonSchema> {
  const roots = paths.flatMap((path) => path.operations.flatMap((operation) => [operation.body, operation.response]));
  const types = reachableTypes(roots.filter((type): type is StructSchema => typeof type === 'object'));
  const entries: [string, JsonSchema][] = types.map((type) => {
    const gvk = gvks.get(type);
    return [definitionName(type), writer.definition(type, gvk ? { 'x-kubernetes-group-version-kind': gvk } : {})];
  });
  entries.push(...leafDefinitions(types));
  return Object.fromEntries(entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
