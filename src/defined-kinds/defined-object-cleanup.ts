import { Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { StatusError } from '../apimachinery/errors/status-error';
import { KubeObject } from '../apimachinery/meta/kube-object';
import { KindDefinition } from '../registry/kind-definition';
import { GenericRegistry } from '../registry/store/generic-registry';
import { DefinedObjects } from '../storage/defined-objects';
import { DefinitionCleanup } from './definition-source';

const RECHECK_MS = 500;

const notFound = (error: unknown) => error instanceof StatusError && error.code === 404;

/**
 * Deletes the objects of defined resources when their definition goes. Every instance that sees it do so runs the
 * work; what one has done, the others find done.
 */
@Injectable()
export class DefinedObjectCleanup implements OnApplicationShutdown {
  private readonly logger = new Logger('DefinedObjectCleanup');
  /** the definitions whose deletion this instance is finishing, by `<resource>/<name>` */
  private readonly finishing = new Set<string>();
  private stopping = false;

  constructor(
    private readonly objects: DefinedObjects,
    private readonly store: GenericRegistry,
  ) {}

  onApplicationShutdown(): void {
    this.stopping = true;
  }

  /**
   * For a definition already gone (a ThirdPartyResource): one DELETE of the rows, whose triggers log a DELETED
   * change each. Only objects not written since the definition went are deleted, so that a definition created again
   * at once keeps the objects made under it.
   */
  async deleteObjects(kind: KindDefinition, definitionDeletedAt: bigint): Promise<void> {
    try {
      await this.objects.deleteWrittenBefore(kind.group, kind.resource, definitionDeletedAt);
    } catch (error) {
      this.logger.error(`deleting the objects of ${kind.resource}.${kind.group} failed: ${(error as Error).message}`);
    }
  }

  /**
   * For a definition held by its cleanup finalizer (a CRD marked for deletion): says so in its status (`progress`),
   * deletes each of its objects as a client's DELETE would (their own finalizers are honoured), waits until none is
   * left, then removes the finalizer, which lets the definition go.
   */
  finishDeletion(definitions: KindDefinition, definition: KubeObject, kind: KindDefinition | undefined, cleanup: DefinitionCleanup): void {
    const name = definition.metadata.name as string;
    const key = `${definitions.resource}/${name}`;
    if (this.finishing.has(key)) return;
    this.finishing.add(key);
    this.store
      .update(definitions, undefined, name, (current) => {
        cleanup.inProgress(current);
        return current;
      })
      .then(() => (kind ? this.deleteAll(kind) : true)) // a definition that served nothing has no objects
      .then(async (done) => {
        if (!done) return;
        await this.store.update(definitions, undefined, name, (current) => {
          current.metadata.finalizers = (current.metadata.finalizers ?? []).filter((f) => f !== cleanup.finalizer);
          return current;
        });
      })
      .catch((error) => {
        if (!notFound(error)) this.logger.error(`finishing the deletion of ${key} failed: ${(error as Error).message}`);
      })
      .finally(() => this.finishing.delete(key));
  }

  /** Deletes every object of the kind until none is left; false when the server stops first. */
  private async deleteAll(kind: KindDefinition): Promise<boolean> {
    for (;;) {
      const { items } = await this.store.list(kind, undefined);
      if (items.length === 0) return true;
      for (const object of items) {
        if (object.metadata.deletionTimestamp) continue;
        await this.store.delete(kind, object.metadata.namespace || undefined, object.metadata.name as string, {}).catch((error) => {
          if (!notFound(error)) throw error;
        });
      }
      if (this.stopping) return false;
      await new Promise((resolve) => setTimeout(resolve, RECHECK_MS));
    }
  }
}
