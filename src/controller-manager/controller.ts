/**
 * A controller the controller manager runs (kube-controller-manager's controllers): on one instance at a time, the
 * one that holds the controller's Lease. Nothing of a controller is in the request path.
 */
export interface Controller {
  /** kube-controller-manager's name for it, as `--controllers` takes it */
  readonly name: string;
  /** Starts its work, which goes on until `signal` aborts (this instance no longer holds its Lease, or stops). */
  start(signal: AbortSignal): void;
  /** Resolves once the work under way when `signal` aborted has ended. */
  stop(): Promise<void>;
}

/** The token of the list of every controller there is (whether enabled or not). */
export const CONTROLLERS = Symbol('CONTROLLERS');
