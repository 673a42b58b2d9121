import { servedType } from '../../src/apimachinery/schema/go-packages';
import { StructSchema } from '../../src/apimachinery/schema/schema';
// the kinds' modules declare their types when they load
import '../../src/apis/core/core.kinds';
import '../../src/apis/extensions/extensions.kinds';
import '../../src/apis/federation/federation.kinds';
import '../../src/apis/networking/networking.kinds';
import '../../src/apis/policy/policy.kinds';

/** The declared type of a kind served in `apiVersion` (`extensions/v1beta1`, `v1`). */
export function kindShape(apiVersion: string, kind: string): StructSchema {
  const type = servedType(apiVersion, kind);
  if (!type) throw new Error(`no type ${kind} in ${apiVersion}`);
  return type;
}
