import { Injectable } from '@nestjs/common';
import { apiErrors } from '../../apimachinery/errors/status-error';
import { KindDefinition } from '../kind-definition';
import { KindRegistry } from '../kind-registry';
import { ScaleRegistry } from '../scale/scale-registry';
import { GenericRegistry } from '../store/generic-registry';
import { ObjectStorage, PartStorage, StatusStorage } from './object-storage';
import { ScaleStorage } from './scale-storage';
import { Storage } from './storage';

/** The storage of each path of a kind: the object's, or the one its row declares for a subresource. */
@Injectable()
export class Storages {
  private readonly made = new WeakMap<KindDefinition, Map<string, Storage>>();

  constructor(
    private readonly registry: GenericRegistry,
    private readonly scales: ScaleRegistry,
    private readonly kinds: KindRegistry,
  ) {}

  of(def: KindDefinition, subresource: string | undefined): Storage {
    let byPath = this.made.get(def);
    if (!byPath) this.made.set(def, (byPath = new Map()));
    let storage = byPath.get(subresource ?? '');
    if (!storage) byPath.set(subresource ?? '', (storage = this.make(def, subresource)));
    return storage;
  }

  private make(def: KindDefinition, subresource: string | undefined): Storage {
    if (subresource === undefined) return new ObjectStorage(def, this.registry, this.kinds);
    const declared = def.subresources.find((sub) => sub.name === subresource);
    if (declared?.scale) return new ScaleStorage(def, declared.scale, this.scales, this.kinds);
    if (declared?.status) return new StatusStorage(def, this.registry, this.kinds);
    if (declared?.part) return new PartStorage(def, declared.name, declared.part, this.registry, this.kinds);
    throw apiErrors.pathNotFound();
  }
}
