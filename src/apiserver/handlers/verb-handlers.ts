import { Inject, Injectable } from '@nestjs/common';
import { Verb } from '../../registry/kind-definition';
import { VerbHandler } from './api-request';

/** Injection token of the list of every verb handler (see ApiServerModule). */
export const VERB_HANDLER_LIST = Symbol('VERB_HANDLER_LIST');

const routeKey = (verb: Verb, subresource: string | undefined) => `${subresource ?? ''}:${verb}`;

/**
 * Finds the handler of a verb on a resource's main path or on a subresource: one that names the subresource
 * (rollback, token), else one that serves every subresource's storage (`*`: get, update and patch of status and scale).
 */
@Injectable()
export class VerbHandlers {
  private readonly byRoute = new Map<string, VerbHandler>();

  constructor(@Inject(VERB_HANDLER_LIST) handlers: VerbHandler[]) {
    for (const handler of handlers) {
      for (const route of handler.routes) this.byRoute.set(routeKey(route.verb, route.subresource), handler);
    }
  }

  find(verb: Verb, subresource: string | undefined): VerbHandler | undefined {
    return this.byRoute.get(routeKey(verb, subresource)) ?? (subresource === undefined ? undefined : this.byRoute.get(routeKey(verb, '*')));
  }
}
