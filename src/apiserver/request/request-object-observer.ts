import { KubeObject } from '../../apimachinery/meta/kube-object';

declare module 'fastify' {
  interface FastifyRequest {
    /**
     * Told the request's body once it is decoded as an object, by a filter that wants it: the audit, which completes
     * its objectRef from it as upstream's LogRequestObject does (a create names its object only in the body).
     */
    observeRequestObject?: (object: KubeObject) => void;
  }
}
