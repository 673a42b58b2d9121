import { KubeObject } from '../apimachinery/meta/kube-object';
import { structType } from '../fieldmanager/apply-type';
import { FieldSet } from '../fieldmanager/field-set';
import { VersionConverter, VersionForm } from '../fieldmanager/version-converter';
import { KindDefinition, storageKeyOf } from './kind-definition';
import { KindRegistry } from './kind-registry';
import { ConversionNeeded } from './conversion-needed';
import { Converted, convertsByCall } from './store/served-version';
import { copyJson } from '../apimachinery/meta/json-value';

/** How many objects converted by a call are kept for the writes that asked for them (see ConversionNeeded). */
const CALLED_KEPT = 64;

/**
 * The versions the stored objects of a kind are served in, as the registry serves them now (a custom resource's
 * versions come and go): each converts to the stored form and back with its row's `conversion`, or, for a row whose
 * objects a call converts, with that call, made before the write that needs it (upstream's CRD field manager calls
 * the webhook for each manager's version).
 */
export class ServedVersions implements VersionConverter {
  private readonly forms = new WeakMap<KindDefinition, VersionForm>();
  private readonly called = new Map<string, KubeObject>();

  constructor(
    private readonly def: KindDefinition,
    private readonly kinds: KindRegistry,
    /** what a write on the field manager's path resets in a version */
    private readonly resetOf: (served: KindDefinition) => FieldSet,
  ) {}

  form(apiVersion: string): VersionForm | undefined {
    const served = this.servedIn(apiVersion);
    if (!served) return undefined;
    let form = this.forms.get(served);
    if (!form) this.forms.set(served, (form = { type: structType(served.strategy.shape), reset: this.resetOf(served) }));
    return form;
  }

  convert(object: KubeObject, from: string, to: string): KubeObject {
    if (from === to) return object;
    const source = this.servedIn(from);
    const target = this.servedIn(to);
    if (!source || !target) throw new Error(`${this.def.resource} are not served in ${source ? to : from}`);
    if (convertsByCall(target)) return this.convertedByCall(target, { ...object, apiVersion: from }, to);
    const stored = source.conversion ? source.conversion.toStored(object) : object;
    return target.conversion ? target.conversion.fromStored(stored) : stored;
  }

  /** The object as the target row's call converted it; a ConversionNeeded that calls it when it has not yet. */
  private convertedByCall(target: Converted, object: KubeObject, to: string): KubeObject {
    const key = `${to}\n${JSON.stringify(object)}`;
    const converted = this.called.get(key);
    if (converted) return copyJson(converted);
    throw new ConversionNeeded(async () => {
      const [answer] = await target.storageConversion.fromStored([object]);
      if (this.called.size >= CALLED_KEPT) this.called.delete(this.called.keys().next().value as string);
      this.called.set(key, answer);
    });
  }

  /** The row serving the kind's objects in an API version, if any. */
  private servedIn(apiVersion: string): KindDefinition | undefined {
    const slash = apiVersion.indexOf('/');
    const served = this.kinds.find(slash < 0 ? '' : apiVersion.slice(0, slash), apiVersion.slice(slash + 1), this.def.resource);
    if (!served) return undefined;
    const [key, other] = [storageKeyOf(this.def), storageKeyOf(served)];
    return key.group === other.group && key.resource === other.resource ? served : undefined;
  }
}
