import { Inject, Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { KubeObject } from '../apimachinery/meta/kube-object';
import { KindDefinition } from '../registry/kind-definition';
import { KindRegistry } from '../registry/kind-registry';
import { GenericRegistry } from '../registry/store/generic-registry';
import { ObjectStore } from '../storage/objects/object-store';
import { ChangeFeed } from '../watch/change-feed.service';
import { Change, resourceKey } from '../storage/changes/change';
import { DefinedObjectCleanup } from './defined-object-cleanup';
import { DEFINITION_SOURCES, DefinitionSource } from './definition-source';

const sameRow = (a: KindDefinition, b: KindDefinition) => a.group === b.group && a.version === b.version && a.resource === b.resource;

/**
 * Keeps the kind registry of this instance in step with the stored definitions (ThirdPartyResources, CRDs): it
 * reads them all at start-up, then follows their changes on the change feed. A definition's rows are added,
 * replaced or removed while the feed delivers the definition's change, before any later change is delivered, so
 * the objects written after a definition always find their kind served. When a definition is deleted, the objects
 * of the resources it alone served are deleted too.
 */
@Injectable()
export class ServedDefinitions implements OnModuleInit {
  /** the rows each stored definition serves, by `<definitions' resource key>/<definition name>` */
  private readonly served = new Map<string, KindDefinition[]>();
  private readonly logger = new Logger('ServedDefinitions');

  constructor(
    private readonly registry: KindRegistry,
    private readonly feed: ChangeFeed,
    private readonly objects: ObjectStore,
    private readonly cleanup: DefinedObjectCleanup,
    private readonly store: GenericRegistry,
    @Inject(DEFINITION_SOURCES) private readonly sources: readonly DefinitionSource[],
  ) {}

  async onModuleInit(): Promise<void> {
    for (const source of this.sources) await this.follow(source);
  }

  /**
   * Subscribes first and reads the definitions after, so that nothing falls between the two; changes the read
   * already includes (up to its resourceVersion) are skipped when the feed delivers them.
   */
  private async follow(source: DefinitionSource): Promise<void> {
    const { group, resource } = source.stored;
    let readAt: bigint | undefined;
    const early: Change[] = [];
    this.feed.subscribe({
      key: resourceKey(group, resource),
      deliver: (change) => {
        if (readAt === undefined) early.push(change);
        else if (change.resourceVersion > readAt) this.apply(source, change);
      },
    });
    const { items, resourceVersion } = await this.objects.list(source.stored, undefined);
    for (const definition of items) this.serve(source, definition);
    readAt = BigInt(resourceVersion);
    for (const change of early) if (change.resourceVersion > readAt) this.apply(source, change);
  }

  private apply(source: DefinitionSource, change: Change): void {
    if (change.type !== 'DELETED') {
      this.serve(source, change.object);
      return;
    }
    const removed = this.replaceRows(source, change.name, []);
    for (const kind of removed) void this.cleanup.deleteObjects(kind, change.resourceVersion);
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
