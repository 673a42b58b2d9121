import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { KubeObject } from '../apimachinery/meta/kube-object';
import { KindDefinition } from '../registry/kind-definition';
import { KindRegistry } from '../registry/kind-registry';
import { GenericRegistry } from '../registry/store/generic-registry';
import { resourceKey } from '../storage/changes/change';
import { InformerFactory } from '../watch/informer-factory';
import { DefinedObjectCleanup } from './defined-object-cleanup';
import { DEFINITION_SOURCES, DefinitionSource } from './definition-source';

const sameRow = (a: KindDefinition, b: KindDefinition) => a.group === b.group && a.version === b.version && a.resource === b.resource;

/**
 * Keeps the kind registry of this instance in step with the stored definitions (ThirdPartyResources, CRDs): an
 * informer of each kind of definition reads them all at start-up (the server serves nothing before), then follows
 * their changes on the change feed. A definition's rows are added, replaced or removed while the feed delivers the
 * definition's change, before any later change is delivered, so the objects written after a definition always
 * find their kind served. When a definition is deleted, the objects of the resources it alone served are deleted
 * too.
 */
@Injectable()
export class ServedDefinitions implements OnModuleInit {
  /** the rows each stored definition serves, by `<definitions' resource key>/<definition name>` */
  private readonly served = new Map<string, KindDefinition[]>();
  private readonly logger = new Logger('ServedDefinitions');

  constructor(
    private readonly registry: KindRegistry,
    private readonly informers: InformerFactory,
    private readonly cleanup: DefinedObjectCleanup,
    private readonly store: GenericRegistry,
    @Inject(DEFINITION_SOURCES) private readonly sources: readonly DefinitionSource[],
  ) {}

  async onModuleInit(): Promise<void> {
    for (const source of this.sources) {
      const { group, resource } = source.stored;
      const informer = this.informers.informerFor({ group, resource });
      informer.addEventHandler({
        added: (definition) => this.serve(source, definition),
        updated: (definition) => this.serve(source, definition),
        deleted: (definition, resourceVersion) => this.withdraw(source, definition, resourceVersion),
      });
      await informer.start();
    }
  }

  /** Stops serving a deleted definition's rows, and deletes the objects of the resources it alone served. */
  private withdraw(source: DefinitionSource, definition: KubeObject, deletedAt: bigint): void {
    const removed = this.replaceRows(source, definition.metadata.name as string, []);
    for (const kind of removed) void this.cleanup.deleteObjects(kind, deletedAt);
  }

  /** Serves what a definition says; one that cannot be served (written by SQL past the checks) serves nothing. */
  private serve(source: DefinitionSource, definition: KubeObject): void {
    const name = definition.metadata.name as string;
    let rows: KindDefinition[] = [];
    try {
      rows = source.kindsOf(definition);
    } catch (error) {
      this.logger.error(`${source.stored.resource} ${name} cannot be served: ${(error as Error).message}`);
    }
    this.replaceRows(source, name, rows);
    const served = this.served.get(this.key(source, name)) ?? [];
    const definitions = this.registry.find(source.stored.group, source.stored.version, source.stored.resource) as KindDefinition;
    const refused = rows.find((row) => !served.includes(row));
    if (refused && source.refused) this.record(definitions, name, (current) => source.refused?.(current, `${refused.resource}.${refused.group}`));
    const { cleanup } = source;
    if (cleanup && definition.metadata.deletionTimestamp && definition.metadata.finalizers?.includes(cleanup.finalizer)) {
      this.cleanup.finishDeletion(definitions, definition, served[0], cleanup);
    }
  }

  /** Writes what the server says of a definition (every instance may: the same write twice changes nothing). */
  private record(definitions: KindDefinition, name: string, change: (definition: KubeObject) => void): void {
    this.store
      .update(definitions, undefined, name, (current) => {
        change(current);
        return current;
      })
      .catch((error: Error) => this.logger.warn(`recording the state of ${definitions.resource} ${name} failed: ${error.message}`));
  }

  /**
   * Puts a definition's new rows in place of its old ones; returns the old rows whose resource is no longer served.
   * A resource that a built-in kind or another definition serves already is left to it: its objects are its own
   * (the objects table keys them by group and resource alone), so they are neither served nor, when this
   * definition goes, deleted on its behalf.
   */
  private replaceRows(source: DefinitionSource, name: string, wanted: KindDefinition[]): KindDefinition[] {
    const key = this.key(source, name);
    const old = this.served.get(key) ?? [];
    const rows = wanted.filter((row) => {
      const owner = this.registry.findStored(row.group, row.resource);
      if (!owner || old.includes(owner)) return true;
      this.logger.warn(`${source.stored.resource} ${name}: ${row.resource}.${row.group} is served already; not serving it again`);
      return false;
    });
    for (const row of rows) this.registry.registerGroup({ group: row.group, version: row.version, legacyDiscovery: false }, [row]);
    for (const row of old) if (!rows.some((r) => sameRow(r, row))) this.registry.unregister(row);
    if (rows.length > 0) this.served.set(key, rows);
    else this.served.delete(key);
    return old.filter((row) => !rows.some((r) => r.group === row.group && r.resource === row.resource));
  }

  private key(source: DefinitionSource, name: string): string {
    return `${resourceKey(source.stored.group, source.stored.resource)}/${name}`;
  }
}
