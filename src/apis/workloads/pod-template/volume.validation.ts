import { FieldError, fieldErrors } from '../../../apimachinery/errors/field-error';
import { isPlainObject } from '../../../apimachinery/meta/kube-object';
import { dns1123Label } from '../../../apimachinery/validation/names';
import { Volume, VOLUME_SOURCE } from './volume.schema';

/** The fields a volume source cannot do without. */
const REQUIRED_SOURCE_FIELDS: Record<string, string[]> = {
  hostPath: ['path'],
  gcePersistentDisk: ['pdName'],
  awsElasticBlockStore: ['volumeID'],
  gitRepo: ['repository'],
  secret: ['secretName'],
  nfs: ['server', 'path'],
  iscsi: ['targetPortal', 'iqn'],
  glusterfs: ['endpoints', 'path'],
  persistentVolumeClaim: ['claimName'],
  rbd: ['monitors', 'image'],
  flexVolume: ['driver'],
  cinder: ['volumeID'],
  cephfs: ['monitors'],
  azureFile: ['secretName', 'shareName'],
  configMap: ['name'],
  azureDisk: ['diskName', 'diskURI'],
  projected: ['sources'],
};

const isEmpty = (value: unknown) => value === undefined || value === '' || (Array.isArray(value) && value.length === 0);

function validateSource(volume: Volume, field: string): FieldError[] {
  const members: Record<string, unknown> = volume;
  const sources = Object.keys(VOLUME_SOURCE.fields).filter((source) => members[source] !== undefined);
  if (sources.length === 0) return [fieldErrors.required(field, 'must specify a volume type')];
  const errors = sources.slice(1).map((extra) => fieldErrors.forbidden(`${field}.${extra}`, 'may not specify more than 1 volume type'));
  const source = members[sources[0]];
  if (isPlainObject(source)) {
    for (const required of REQUIRED_SOURCE_FIELDS[sources[0]] ?? []) {
      if (isEmpty(source[required])) errors.push(fieldErrors.required(`${field}.${sources[0]}.${required}`));
    }
  }
  return errors;
}

/** A pod spec's volumes; answers the names of the valid ones, which mounts may refer to. */
export function validateVolumes(volumes: Volume[], field: string): { names: Set<string>; errors: FieldError[] } {
  const names = new Set<string>();
  const errors: FieldError[] = [];
  volumes.forEach((volume, i) => {
    const path = `${field}[${i}]`;
    const volumeErrors = validateSource(volume, path);
    const name = volume.name ?? '';
    if (!name) volumeErrors.push(fieldErrors.required(`${path}.name`));
    else for (const message of dns1123Label(name)) volumeErrors.push(fieldErrors.invalid(`${path}.name`, name, message));
    if (names.has(name)) volumeErrors.push(fieldErrors.duplicate(`${path}.name`, name));
    if (volumeErrors.length === 0) names.add(name);
    errors.push(...volumeErrors);
  });
  return { names, errors };
}

/** Pods on several nodes can share a GCE persistent disk only read-only. */
export function validateReadOnlyPersistentDisks(volumes: Volume[], field: string): FieldError[] {
  return volumes.flatMap((volume, i) => {
    const disk = volume.gcePersistentDisk;
    if (!disk || disk.readOnly) return [];
    return [
      fieldErrors.invalid(
        `${field}[${i}].gcePersistentDisk.readOnly`,
        false,
        'must be true for replicated pods > 1; GCE PD can only be mounted on multiple machines if it is read-only',
      ),
    ];
  });
}
