import { CORE_V1 } from './core-v1';
import { LOCAL_OBJECT_REFERENCE, OBJECT_FIELD_SELECTOR, RESOURCE_FIELD_SELECTOR } from './references.schema';
import { inline, pointer, required, s } from '../../../apimachinery/schema/schema';
import { TypeOf } from '../../../apimachinery/schema/type-of';

const HOST_PATH_VOLUME_SOURCE = CORE_V1.struct('HostPathVolumeSource', {
  path: [1, s.string, required],
});

const EMPTY_DIR_VOLUME_SOURCE = CORE_V1.struct('EmptyDirVolumeSource', {
  medium: [1, s.string],
  sizeLimit: [2, s.quantity],
});

const GCE_PERSISTENT_DISK_VOLUME_SOURCE = CORE_V1.struct('GCEPersistentDiskVolumeSource', {
  pdName: [1, s.string, required],
  fsType: [2, s.string],
  partition: [3, s.int32],
  readOnly: [4, s.boolean],
});

const AWS_ELASTIC_BLOCK_STORE_VOLUME_SOURCE = CORE_V1.struct('AWSElasticBlockStoreVolumeSource', {
  volumeID: [1, s.string, required],
  fsType: [2, s.string],
  partition: [3, s.int32],
  readOnly: [4, s.boolean],
});

const GIT_REPO_VOLUME_SOURCE = CORE_V1.struct('GitRepoVolumeSource', {
  repository: [1, s.string, required],
  revision: [2, s.string],
  directory: [3, s.string],
});

const KEY_TO_PATH = CORE_V1.struct('KeyToPath', {
  key: [1, s.string, required],
  path: [2, s.string, required],
  mode: [3, s.int32, pointer],
});

const SECRET_VOLUME_SOURCE = CORE_V1.struct('SecretVolumeSource', {
  secretName: [1, s.string],
  items: [2, s.list(KEY_TO_PATH)],
  defaultMode: [3, s.int32, pointer],
  optional: [4, s.boolean, pointer],
});

const NFS_VOLUME_SOURCE = CORE_V1.struct('NFSVolumeSource', {
  server: [1, s.string, required],
  path: [2, s.string, required],
  readOnly: [3, s.boolean],
});

const ISCSI_VOLUME_SOURCE = CORE_V1.struct('ISCSIVolumeSource', {
  targetPortal: [1, s.string, required],
  iqn: [2, s.string, required],
  lun: [3, s.int32, required],
  iscsiInterface: [4, s.string],
  fsType: [5, s.string],
  readOnly: [6, s.boolean],
  portals: [7, s.stringList],
  chapAuthDiscovery: [8, s.boolean],
  chapAuthSession: [11, s.boolean],
  secretRef: [10, LOCAL_OBJECT_REFERENCE],
});

const GLUSTERFS_VOLUME_SOURCE = CORE_V1.struct('GlusterfsVolumeSource', {
  endpoints: [1, s.string, required],
  path: [2, s.string, required],
  readOnly: [3, s.boolean],
});

const PERSISTENT_VOLUME_CLAIM_VOLUME_SOURCE = CORE_V1.struct('PersistentVolumeClaimVolumeSource', {
  claimName: [1, s.string, required],
  readOnly: [2, s.boolean],
});

const RBD_VOLUME_SOURCE = CORE_V1.struct('RBDVolumeSource', {
  monitors: [1, s.stringList, required],
  image: [2, s.string, required],
  fsType: [3, s.string],
  pool: [4, s.string],
  user: [5, s.string],
  keyring: [6, s.string],
  secretRef: [7, LOCAL_OBJECT_REFERENCE],
  readOnly: [8, s.boolean],
});

const FLEX_VOLUME_SOURCE = CORE_V1.struct('FlexVolumeSource', {
  driver: [1, s.string, required],
  fsType: [2, s.string],
  secretRef: [3, LOCAL_OBJECT_REFERENCE],
  readOnly: [4, s.boolean],
  options: [5, s.stringMap],
});

const CINDER_VOLUME_SOURCE = CORE_V1.struct('CinderVolumeSource', {
  volumeID: [1, s.string, required],
  fsType: [2, s.string],
  readOnly: [3, s.boolean],
});

const CEPH_FS_VOLUME_SOURCE = CORE_V1.struct('CephFSVolumeSource', {
  monitors: [1, s.stringList, required],
  path: [2, s.string],
  user: [3, s.string],
  secretFile: [4, s.string],
  secretRef: [5, LOCAL_OBJECT_REFERENCE],
  readOnly: [6, s.boolean],
});

const FLOCKER_VOLUME_SOURCE = CORE_V1.struct('FlockerVolumeSource', {
  datasetName: [1, s.string],
  datasetUUID: [2, s.string],
});

const DOWNWARD_API_VOLUME_FILE = CORE_V1.struct('DownwardAPIVolumeFile', {
  path: [1, s.string, required],
  fieldRef: [2, OBJECT_FIELD_SELECTOR],
  resourceFieldRef: [3, RESOURCE_FIELD_SELECTOR],
  mode: [4, s.int32, pointer],
});

const DOWNWARD_API_VOLUME_SOURCE = CORE_V1.struct('DownwardAPIVolumeSource', {
  items: [1, s.list(DOWNWARD_API_VOLUME_FILE)],
  defaultMode: [2, s.int32, pointer],
});

const FC_VOLUME_SOURCE = CORE_V1.struct('FCVolumeSource', {
  targetWWNs: [1, s.stringList, required],
  lun: [2, s.int32, required, pointer],
  fsType: [3, s.string],
  readOnly: [4, s.boolean],
});

const AZURE_FILE_VOLUME_SOURCE = CORE_V1.struct('AzureFileVolumeSource', {
  secretName: [1, s.string, required],
  shareName: [2, s.string, required],
  readOnly: [3, s.boolean],
});

const CONFIG_MAP_VOLUME_SOURCE = CORE_V1.struct('ConfigMapVolumeSource', {
  localObjectReference: [1, LOCAL_OBJECT_REFERENCE, inline],
  items: [2, s.list(KEY_TO_PATH)],
  defaultMode: [3, s.int32, pointer],
  optional: [4, s.boolean, pointer],
});

const VSPHERE_VIRTUAL_DISK_VOLUME_SOURCE = CORE_V1.struct('VsphereVirtualDiskVolumeSource', {
  volumePath: [1, s.string, required],
  fsType: [2, s.string],
  storagePolicyName: [3, s.string],
  storagePolicyID: [4, s.string],
});

const QUOBYTE_VOLUME_SOURCE = CORE_V1.struct('QuobyteVolumeSource', {
  registry: [1, s.string, required],
  volume: [2, s.string, required],
  readOnly: [3, s.boolean],
  user: [4, s.string],
  group: [5, s.string],
});

const AZURE_DISK_VOLUME_SOURCE = CORE_V1.struct('AzureDiskVolumeSource', {
  diskName: [1, s.string, required],
  diskURI: [2, s.string, required],
  cachingMode: [3, s.string, pointer],
  fsType: [4, s.string, pointer],
  readOnly: [5, s.boolean, pointer],
  kind: [6, s.string, pointer],
});

const PHOTON_PERSISTENT_DISK_VOLUME_SOURCE = CORE_V1.struct('PhotonPersistentDiskVolumeSource', {
  pdID: [1, s.string, required],
  fsType: [2, s.string],
});

const SECRET_PROJECTION = CORE_V1.struct('SecretProjection', {
  localObjectReference: [1, LOCAL_OBJECT_REFERENCE, inline],
  items: [2, s.list(KEY_TO_PATH)],
  optional: [4, s.boolean, pointer],
});

const DOWNWARD_API_PROJECTION = CORE_V1.struct('DownwardAPIProjection', {
  items: [1, s.list(DOWNWARD_API_VOLUME_FILE)],
});

const CONFIG_MAP_PROJECTION = CORE_V1.struct('ConfigMapProjection', {
  localObjectReference: [1, LOCAL_OBJECT_REFERENCE, inline],
  items: [2, s.list(KEY_TO_PATH)],
  optional: [4, s.boolean, pointer],
});

const VOLUME_PROJECTION = CORE_V1.struct('VolumeProjection', {
  secret: [1, SECRET_PROJECTION],
  downwardAPI: [2, DOWNWARD_API_PROJECTION],
  configMap: [3, CONFIG_MAP_PROJECTION],
});

const PROJECTED_VOLUME_SOURCE = CORE_V1.struct('ProjectedVolumeSource', {
  sources: [1, s.list(VOLUME_PROJECTION), required],
  defaultMode: [2, s.int32, pointer],
});

const PORTWORX_VOLUME_SOURCE = CORE_V1.struct('PortworxVolumeSource', {
  volumeID: [1, s.string, required],
  fsType: [2, s.string],
  readOnly: [3, s.boolean],
});

const SCALE_IO_VOLUME_SOURCE = CORE_V1.struct('ScaleIOVolumeSource', {
  gateway: [1, s.string, required],
  system: [2, s.string, required],
  secretRef: [3, LOCAL_OBJECT_REFERENCE, required],
  sslEnabled: [4, s.boolean],
  protectionDomain: [5, s.string],
  storagePool: [6, s.string],
  storageMode: [7, s.string],
  volumeName: [8, s.string],
  fsType: [9, s.string],
  readOnly: [10, s.boolean],
});

const STORAGE_OS_VOLUME_SOURCE = CORE_V1.struct('StorageOSVolumeSource', {
  volumeName: [1, s.string],
  volumeNamespace: [2, s.string],
  fsType: [3, s.string],
  readOnly: [4, s.boolean],
  secretRef: [5, LOCAL_OBJECT_REFERENCE],
});

/** The volume sources of 1.7: a volume names exactly one, beside its name (an embedded struct). */
export const VOLUME_SOURCE = CORE_V1.struct('VolumeSource', {
  hostPath: [1, HOST_PATH_VOLUME_SOURCE],
  emptyDir: [2, EMPTY_DIR_VOLUME_SOURCE],
  gcePersistentDisk: [3, GCE_PERSISTENT_DISK_VOLUME_SOURCE],
  awsElasticBlockStore: [4, AWS_ELASTIC_BLOCK_STORE_VOLUME_SOURCE],
  gitRepo: [5, GIT_REPO_VOLUME_SOURCE],
  secret: [6, SECRET_VOLUME_SOURCE],
  nfs: [7, NFS_VOLUME_SOURCE],
  iscsi: [8, ISCSI_VOLUME_SOURCE],
  glusterfs: [9, GLUSTERFS_VOLUME_SOURCE],
  persistentVolumeClaim: [10, PERSISTENT_VOLUME_CLAIM_VOLUME_SOURCE],
  rbd: [11, RBD_VOLUME_SOURCE],
  flexVolume: [12, FLEX_VOLUME_SOURCE],
  cinder: [13, CINDER_VOLUME_SOURCE],
  cephfs: [14, CEPH_FS_VOLUME_SOURCE],
  flocker: [15, FLOCKER_VOLUME_SOURCE],
  downwardAPI: [16, DOWNWARD_API_VOLUME_SOURCE],
  fc: [17, FC_VOLUME_SOURCE],
  azureFile: [18, AZURE_FILE_VOLUME_SOURCE],
  configMap: [19, CONFIG_MAP_VOLUME_SOURCE],
  vsphereVolume: [20, VSPHERE_VIRTUAL_DISK_VOLUME_SOURCE],
  quobyte: [21, QUOBYTE_VOLUME_SOURCE],
  azureDisk: [22, AZURE_DISK_VOLUME_SOURCE],
  photonPersistentDisk: [23, PHOTON_PERSISTENT_DISK_VOLUME_SOURCE],
  projected: [26, PROJECTED_VOLUME_SOURCE],
  portworxVolume: [24, PORTWORX_VOLUME_SOURCE],
  scaleIO: [25, SCALE_IO_VOLUME_SOURCE],
  storageos: [27, STORAGE_OS_VOLUME_SOURCE],
});

export const VOLUME = CORE_V1.struct('Volume', {
  name: [1, s.string, required],
  volumeSource: [2, VOLUME_SOURCE, inline],
});

export type Volume = TypeOf<typeof VOLUME>;
