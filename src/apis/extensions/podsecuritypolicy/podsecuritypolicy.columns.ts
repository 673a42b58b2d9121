import { KubeObject } from '../../../apimachinery/meta/kube-object';
import { column, NAME_COLUMN, TableColumn } from '../../../registry/table/table-column';
import { PodSecurityPolicy } from './podsecuritypolicy.schema';

const SPEC = [['spec']];

const spec = (object: KubeObject) => (object as PodSecurityPolicy).spec ?? {};

/** `kubectl get podsecuritypolicies`: NAME PRIV CAPS SELINUX RUNASUSER FSGROUP SUPGROUP READONLYROOTFS VOLUMES. */
export const POD_SECURITY_POLICY_COLUMNS: readonly TableColumn[] = [
  NAME_COLUMN,
  column('Priv', 'string', 'Whether privileged pods are allowed.', SPEC, (p) => String(spec(p).privileged ?? false)),
  column('Caps', 'string', 'The capabilities pods may add.', SPEC, (p) => (spec(p).allowedCapabilities ?? []).join(',')),
  column('SELinux', 'string', 'The SELinux strategy.', SPEC, (p) => spec(p).seLinux?.rule ?? ''),
  column('RunAsUser', 'string', 'The strategy of the user pods run as.', SPEC, (p) => spec(p).runAsUser?.rule ?? ''),
  column('FsGroup', 'string', 'The strategy of the fsGroup.', SPEC, (p) => spec(p).fsGroup?.rule ?? ''),
  column('SupGroup', 'string', 'The strategy of the supplemental groups.', SPEC, (p) => spec(p).supplementalGroups?.rule ?? ''),
  column('ReadOnlyRootFs', 'string', 'Whether containers must run with a read-only root file system.', SPEC, (p) => spec(p).readOnlyRootFilesystem ?? false),
  column('Volumes', 'string', 'The volume types pods may use.', SPEC, (p) => (spec(p).volumes ?? []).join(',')),
];
