import { ADD, CoordinationV1Api, CoreV1Api, Informer, KubeConfig, makeInformer, V1ConfigMap, V1Lease } from '@kubernetes/client-node';

/**
 * A small controller as people write them with @kubernetes/client-node: it takes a Lease to lead (the protocol of
 * client-go's leader election: hold it by renewing before `leaseDurationSeconds` pass, take it over once it has not
 * been renewed for that long), and while it leads it follows ConfigMaps with an informer and reports each new one with
 * an Event. It needs only: configmaps get/list/watch, events create, leases get/create/update.
 */
export interface GreeterOptions {
  namespace: string;
  identity: string;
  leaseName: string;
  leaseDurationSeconds: number;
}

export interface Greeter {
  readonly leading: boolean;
  stop(): Promise<void>;
}

const RETRY_MS = 250;

const statusOf = (error: unknown): number | undefined => (error as { statusCode?: number; response?: { statusCode?: number } }).statusCode ?? (error as { response?: { statusCode?: number } }).response?.statusCode;

export function startGreeter(config: KubeConfig, options: GreeterOptions): Greeter {
  const core = config.makeApiClient(CoreV1Api);
  const leases = config.makeApiClient(CoordinationV1Api);
  const { namespace, identity, leaseName, leaseDurationSeconds } = options;
  let leading = false;
  let stopped = false;
  let informer: Informer<V1ConfigMap> | undefined;
  const greeted = new Set<string>();

  const greet = async (cm: V1ConfigMap) => {
    const uid = cm.metadata?.uid as string;
    if (!leading || greeted.has(uid)) return;
    greeted.add(uid);
    const now = new Date();
    await core.createNamespacedEvent(namespace, {
      metadata: { generateName: `${cm.metadata?.name}.` },
      involvedObject: { kind: 'ConfigMap', apiVersion: 'v1', namespace, name: cm.metadata?.name, uid },
      reason: 'Greeted',
      message: `hello, ${cm.metadata?.name}`,
      type: 'Normal',
      source: { component: 'greeter' },
      reportingComponent: 'greeter',
      reportingInstance: identity,
      firstTimestamp: now,
      lastTimestamp: now,
      count: 1,
    });
  };

  const lead = async () => {
    leading = true;
    informer = makeInformer(config, `/api/v1/namespaces/${namespace}/configmaps`, () => core.listNamespacedConfigMap(namespace));
    informer.on(ADD, (cm) => void greet(cm).catch(() => greeted.delete(cm.metadata?.uid as string)));
    await informer.start();
  };

  const lose = async () => {
    leading = false;
    await informer?.stop();
    informer = undefined;
  };

  /** One round of the election: renew the Lease if ours, take it if free or expired; false when someone else holds it. */
  const tryAcquireOrRenew = async (): Promise<boolean> => {
    const now = new Date();
    const spec = { holderIdentity: identity, leaseDurationSeconds, renewTime: now };
    let lease: V1Lease;
    try {
      lease = (await leases.readNamespacedLease(leaseName, namespace)).body;
    } catch (error) {
      if (statusOf(error) !== 404) throw error;
      await leases.createNamespacedLease(namespace, { metadata: { name: leaseName }, spec: { ...spec, acquireTime: now, leaseTransitions: 0 } });
      return true;
    }
    const held = lease.spec ?? {};
    const ours = held.holderIdentity === identity;
    const expired = !held.renewTime || new Date(held.renewTime).getTime() + (held.leaseDurationSeconds ?? 0) * 1000 < now.getTime();
    if (!ours && !expired) return false;
    const transitions = (held.leaseTransitions ?? 0) + (ours ? 0 : 1);
    lease.spec = { ...held, ...spec, leaseTransitions: transitions, ...(ours ? {} : { acquireTime: now }) };
    await leases.replaceNamespacedLease(leaseName, namespace, lease); // a 409 means another candidate won this round
    return true;
  };

  const loop = async () => {
    while (!stopped) {
      let holds = false;
      try {
        holds = await tryAcquireOrRenew();
      } catch {
        holds = false;
      }
      if (stopped) break;
      if (holds && !leading) await lead();
      if (!holds && leading) await lose();
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  };
  const running = loop();

  return {
    get leading() {
      return leading;
    },
    async stop() {
      stopped = true;
      await running;
      await lose();
    },
  };
}
