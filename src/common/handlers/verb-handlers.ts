import { Injectable } from '@nestjs/common';
import { Verb } from '../registry/kind-definition';
import { VerbHandler } from './api-request';
import { CreateHandler } from './create.handler';
import { DeleteCollectionHandler } from './delete-collection.handler';
import { DeleteHandler } from './delete.handler';
import { GetHandler } from './get.handler';
import { ListHandler } from './list.handler';
import { UpdateHandler } from './update.handler';

/** The handler of each verb on a resource's main path. */
@Injectable()
export class VerbHandlers {
  private readonly byVerb: Map<Verb, VerbHandler>;

  constructor(
    create: CreateHandler,
    get: GetHandler,
    list: ListHandler,
    update: UpdateHandler,
    remove: DeleteHandler,
    removeCollection: DeleteCollectionHandler,
  ) {
    this.byVerb = new Map<Verb, VerbHandler>([
      ['create', create],
      ['get', get],
      ['list', list],
      ['update', update],
      ['delete', remove],
      ['deletecollection', removeCollection],
    ]);
  }

  /** The handler for a verb on a path (`subresource` set for /status, /scale, /rollback); undefined if none. */
  find(verb: Verb, subresource: string | undefined): VerbHandler | undefined {
    return subresource === undefined ? this.byVerb.get(verb) : undefined;
  }
}
