import { Injectable } from '@nestjs/common';
import { Writer } from 'protobufjs';
import { apiRoot } from '../../registry/object-output';
import { KindDefinition } from '../../registry/kind-definition';
import { KindRegistry } from '../../registry/kind-registry';

/** The one path a kind declares in the document: its object path, whose PATCH takes `dryRun`. */
interface PatchPath {
  path: string;
  gvk: { group: string; version: string; kind: string };
}

const DRY_RUN_PARAMETER = {
  name: 'dryRun',
  in: 'query',
  type: 'string',
  uniqueItems: true,
  description: 'When present, the modification is not persisted. The only valid value is All.',
};

/**
 * The OpenAPI v2 document kubectl downloads. It has no definitions, so kubectl's client-side validation passes every
 * kind through (reference §5.6, the recommended minimum); it lists each kind's object path with a PATCH that takes
 * `dryRun` and names the kind (`x-kubernetes-group-version-kind`), which is how kubectl 1.18 to 1.25 decide that a
 * kind supports server-side dry run.
 */
@Injectable()
export class OpenApiDocument {
  private json?: Record<string, unknown>;
  private protobuf?: Buffer;

  constructor(private readonly kinds: KindRegistry) {}

  asJson(): Record<string, unknown> {
    this.json ??= {
      swagger: '2.0',
      info: { title: 'pgkube', version: 'v1.7.4' },
      paths: Object.fromEntries(
        this.patchPaths().map(({ path, gvk }) => [
          path,
          {
            patch: {
              parameters: [DRY_RUN_PARAMETER],
              responses: { '200': { description: 'OK' } },
              'x-kubernetes-group-version-kind': gvk,
            },
          },
        ]),
      ),
    };
    return this.json;
  }

  /** The same document as an `openapi.v2.Document` message (gnostic's OpenAPIv2.proto field numbers). */
  asProtobuf(): Buffer {
    this.protobuf ??= Buffer.from(
      message((w) => {
        w.uint32(field(1, LENGTH_DELIMITED)).string('2.0');
        w.uint32(field(8, LENGTH_DELIMITED)).bytes(message((paths) => this.patchPaths().forEach((p) => writePath(paths, p))));
      }),
    );
    return this.protobuf;
  }

  private patchPaths(): PatchPath[] {
    return this.kinds
      .groupVersions()
      .flatMap((gv) => this.kinds.kindsOf(gv.group, gv.version))
      .filter((def) => def.verbs.includes('patch'))
      .map((def) => ({ path: objectPath(def), gvk: { group: def.group, version: def.version, kind: def.kind } }));
  }
}

function objectPath(def: KindDefinition): string {
  return `${apiRoot(def)}${def.namespaced ? '/namespaces/{namespace}' : ''}/${def.resource}/{name}`;
}

const LENGTH_DELIMITED = 2;
const field = (number: number, wireType: number) => (number << 3) | wireType;

function message(write: (writer: Writer) => void): Uint8Array {
  const writer = Writer.create();
  write(writer);
  return writer.finish();
}

const submessage = (writer: Writer, number: number, write: (writer: Writer) => void) =>
  writer.uint32(field(number, LENGTH_DELIMITED)).bytes(message(write));
const text = (writer: Writer, number: number, value: string) => writer.uint32(field(number, LENGTH_DELIMITED)).string(value);

/** Paths.path (2): NamedPathItem { name 1, PathItem 2 { patch 8: Operation { parameters 8, vendor_extension 13 } } } */
function writePath(paths: Writer, { path, gvk }: PatchPath): void {
  submessage(paths, 2, (named) => {
    text(named, 1, path);
    submessage(named, 2, (item) =>
      submessage(item, 8, (operation) => {
        // ParametersItem.parameter 1 → Parameter.non_body_parameter 2 → NonBodyParameter.query_parameter_sub_schema 3
        submessage(operation, 8, (parametersItem) =>
          submessage(parametersItem, 1, (parameter) =>
            submessage(parameter, 2, (nonBody) =>
              submessage(nonBody, 3, (query) => {
                text(query, 2, DRY_RUN_PARAMETER.in);
                text(query, 3, DRY_RUN_PARAMETER.description);
                text(query, 4, DRY_RUN_PARAMETER.name);
                text(query, 6, DRY_RUN_PARAMETER.type);
              }),
            ),
          ),
        );
        // NamedAny { name 1, Any 2 { yaml 2 } }
        submessage(operation, 13, (extension) => {
          text(extension, 1, 'x-kubernetes-group-version-kind');
          submessage(extension, 2, (any) => text(any, 2, `group: "${gvk.group}"\nkind: ${gvk.kind}\nversion: ${gvk.version}\n`));
        });
      }),
    );
  });
}
