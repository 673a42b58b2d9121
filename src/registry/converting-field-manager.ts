import { KubeObject } from '../apimachinery/meta/kube-object';
import { FieldManager, FieldManagerScope } from '../fieldmanager/field-manager';
import { VersionConversion } from './kind-definition';

/**
 * The field manager of a version served converted: it tracks and merges the objects in that version's form (the
 * form its type and an apply configuration have), while the store gives and takes them in the stored form.
 */
export class ConvertingFieldManager extends FieldManager {
  constructor(
    scope: FieldManagerScope,
    private readonly conversion: VersionConversion,
  ) {
    super(scope);
  }

  override update(live: KubeObject | undefined, next: KubeObject, manager: string): void {
    const served = this.conversion.fromStored(next);
    super.update(live && this.conversion.fromStored(live), served, manager);
    if (served.metadata.managedFields === undefined) delete next.metadata.managedFields;
    else next.metadata.managedFields = served.metadata.managedFields;
  }

  override apply(live: KubeObject | undefined, config: KubeObject, manager: string, force: boolean): KubeObject {
    return this.conversion.toStored(super.apply(live && this.conversion.fromStored(live), config, manager, force));
  }
}
