import { CORE_V1 } from './core-v1';
import { LOCAL_OBJECT_REFERENCE, OBJECT_FIELD_SELECTOR, RESOURCE_FIELD_SELECTOR } from './references.schema';
import { described, inline, pointer, required, s } from '../../../apimachinery/schema/schema';
import { TypeOf } from '../../../apimachinery/schema/type-of';

/** What several volume sources' fields hold. */
const READ_ONLY = described('Whether the volume is mounted read-only.');
const FS_TYPE = described('Filesystem type to mount, such as ext4 or xfs.');
const PARTITION = described('Partition to mount; the whole device when 0.');
const PROJECTED_KEYS = described('Keys to project and the files they go to; every key when empty.');
const FILE_MODE = described('Permission bits of the files made, such as 0644 (the default).');

const HOST_PATH_VOLUME_SOURCE = CORE_V1.struct('HostPathVolumeSource', {
  path: [1, s.string, required, described('Path of the file or directory on the node.')],
});

const EMPTY_DIR_VOLUME_SOURCE = CORE_V1.struct('EmptyDirVolumeSource', {
  medium: [1, s.string, described('Storage behind the directory: empty for the node default, Memory for tmpfs.')],
  sizeLimit: [2, s.quantity, described('Most space the directory may take.')],
});

const GCE_PERSISTENT_DISK_VOLUME_SOURCE = CORE_V1.struct('GCEPersistentDiskVolumeSource', {
  pdName: [1, s.string, required, described('Name of the persistent disk in GCE.')],
  fsType: [2, s.string, FS_TYPE],
  partition: [3, s.int32, PARTITION],
  readOnly: [4, s.boolean, READ_ONLY],
});

const AWS_ELASTIC_BLOCK_STORE_VOLUME_SOURCE = CORE_V1.struct('AWSElasticBlockStoreVolumeSource', {
  volumeID: [1, s.string, required, described('ID of the EBS volume.')],
  fsType: [2, s.string, FS_TYPE],
  partition: [3, s.int32, PARTITION],
  readOnly: [4, s.boolean, READ_ONLY],
});

const GIT_REPO_VOLUME_SOURCE = CORE_V1.struct('GitRepoVolumeSource', {
  repository: [1, s.string, required, described('URL of the repository to clone.')],
  revision: [2, s.string, described('Commit to check out.')],
  directory: [3, s.string, described('Directory to clone into, under the volume root; . clones into the root itself.')],
});

const KEY_TO_PATH = CORE_V1.struct('KeyToPath', {
  key: [1, s.string, required, described('Key whose value is written.')],
  path: [2, s.string, required, described('Relative path of the file the value is written to.')],
  mode: [3, s.int32, pointer, described('Permission bits of the file; the volume default when unset.')],
});

const SECRET_VOLUME_SOURCE = CORE_V1.struct('SecretVolumeSource', {
  secretName: [1, s.string, described('Name of the secret, in the namespace of the pod.')],
  items: [2, s.list(KEY_TO_PATH), PROJECTED_KEYS],
  defaultMode: [3, s.int32, pointer, FILE_MODE],
  optional: [4, s.boolean, pointer, described('Whether the pod may start when the secret or one of its keys is missing.')],
});

const NFS_VOLUME_SOURCE = CORE_V1.struct('NFSVolumeSource', {
  server: [1, s.string, required, described('Host name or IP address of the NFS server.')],
  path: [2, s.string, required, described('Path the server exports.')],
  readOnly: [3, s.boolean, READ_ONLY],
});

const ISCSI_VOLUME_SOURCE = CORE_V1.struct('ISCSIVolumeSource', {
  targetPortal: [1, s.string, required, described('Address of the target portal, IP or IP:port (3260 by default).')],
  iqn: [2, s.string, required, described('iSCSI qualified name of the target.')],
  lun: [3, s.int32, required, described('Logical unit number of the target.')],
  iscsiInterface: [4, s.string, described('Name of the iSCSI interface to use; the one named default (tcp) when unset.')],
  fsType: [5, s.string, FS_TYPE],
  readOnly: [6, s.boolean, READ_ONLY],
  portals: [7, s.stringList, described('More target portals, for multipath.')],
  chapAuthDiscovery: [8, s.boolean, described('Whether discovery uses CHAP authentication.')],
  chapAuthSession: [11, s.boolean, described('Whether the session uses CHAP authentication.')],
  secretRef: [10, LOCAL_OBJECT_REFERENCE, described('Secret holding the CHAP credentials.')],
});

const GLUSTERFS_VOLUME_SOURCE = CORE_V1.struct('GlusterfsVolumeSource', {
  endpoints: [1, s.string, required, described('Name of the Endpoints object that lists the Gluster nodes.')],
  path: [2, s.string, required, described('Name of the Gluster volume.')],
  readOnly: [3, s.boolean, READ_ONLY],
});

const PERSISTENT_VOLUME_CLAIM_VOLUME_SOURCE = CORE_V1.struct('PersistentVolumeClaimVolumeSource', {
  claimName: [1, s.string, required, described('Name of the claim, in the namespace of the pod.')],
  readOnly: [2, s.boolean, READ_ONLY],
});

const RBD_VOLUME_SOURCE = CORE_V1.struct('RBDVolumeSource', {
  monitors: [1, s.stringList, required, described('Addresses of the Ceph monitors.')],
  image: [2, s.string, required, described('Name of the RADOS block device image.')],
  fsType: [3, s.string, FS_TYPE],
  pool: [4, s.string, described('RADOS pool of the image; rbd by default.')],
  user: [5, s.string, described('RADOS user name; admin by default.')],
  keyring: [6, s.string, described('Path of the keyring of the user; /etc/ceph/keyring by default.')],
  secretRef: [7, LOCAL_OBJECT_REFERENCE, described('Secret holding the key of the user, used instead of the keyring.')],
  readOnly: [8, s.boolean, READ_ONLY],
});

const FLEX_VOLUME_SOURCE = CORE_V1.struct('FlexVolumeSource', {
  driver: [1, s.string, required, described('Name of the driver plugin.')],
  fsType: [2, s.string, FS_TYPE],
  secretRef: [3, LOCAL_OBJECT_REFERENCE, described('Secret handed to the driver, if any.')],
  readOnly: [4, s.boolean, READ_ONLY],
  options: [5, s.stringMap, described('More options handed to the driver.')],
});

const CINDER_VOLUME_SOURCE = CORE_V1.struct('CinderVolumeSource', {
  volumeID: [1, s.string, required, described('ID of the Cinder volume.')],
  fsType: [2, s.string, FS_TYPE],
  readOnly: [3, s.boolean, READ_ONLY],
});

const CEPH_FS_VOLUME_SOURCE = CORE_V1.struct('CephFSVolumeSource', {
  monitors: [1, s.stringList, required, described('Addresses of the Ceph monitors.')],
  path: [2, s.string, described('Path inside the filesystem to mount; / by default.')],
  user: [3, s.string, described('RADOS user name; admin by default.')],
  secretFile: [4, s.string, described('Path of the file holding the key of the user; /etc/ceph/user.secret by default.')],
  secretRef: [5, LOCAL_OBJECT_REFERENCE, described('Secret holding the key of the user, used instead of the secret file.')],
  readOnly: [6, s.boolean, READ_ONLY],
});

const FLOCKER_VOLUME_SOURCE = CORE_V1.struct('FlockerVolumeSource', {
  datasetName: [1, s.string, described('Name of the Flocker dataset (the UUID is preferred).')],
  datasetUUID: [2, s.string, described('UUID of the Flocker dataset.')],
});

const DOWNWARD_API_VOLUME_FILE = CORE_V1.struct('DownwardAPIVolumeFile', {
  path: [1, s.string, required, described('Relative path of the file to write.')],
  fieldRef: [2, OBJECT_FIELD_SELECTOR, described('Pod field written to the file.')],
  resourceFieldRef: [3, RESOURCE_FIELD_SELECTOR, described('Limit or request of a container written to the file.')],
  mode: [4, s.int32, pointer, described('Permission bits of the file; the volume default when unset.')],
});

const DOWNWARD_API_VOLUME_SOURCE = CORE_V1.struct('DownwardAPIVolumeSource', {
  items: [1, s.list(DOWNWARD_API_VOLUME_FILE), described('Files to write, each from a pod field or a container resource.')],
  defaultMode: [2, s.int32, pointer, FILE_MODE],
});

const FC_VOLUME_SOURCE = CORE_V1.struct('FCVolumeSource', {
  targetWWNs: [1, s.stringList, required, described('World wide names of the Fibre Channel targets.')],
  lun: [2, s.int32, required, pointer, described('Logical unit number of the target.')],
  fsType: [3, s.string, FS_TYPE],
  readOnly: [4, s.boolean, READ_ONLY],
});

const AZURE_FILE_VOLUME_SOURCE = CORE_V1.struct('AzureFileVolumeSource', {
  secretName: [1, s.string, required, described('Secret holding the name and key of the storage account.')],
  shareName: [2, s.string, required, described('Name of the file share.')],
  readOnly: [3, s.boolean, READ_ONLY],
});

const CONFIG_MAP_VOLUME_SOURCE = CORE_V1.struct('ConfigMapVolumeSource', {
  localObjectReference: [1, LOCAL_OBJECT_REFERENCE, inline],
  items: [2, s.list(KEY_TO_PATH), PROJECTED_KEYS],
  defaultMode: [3, s.int32, pointer, FILE_MODE],
  optional: [4, s.boolean, pointer, described('Whether the pod may start when the config map or one of its keys is missing.')],
});

const VSPHERE_VIRTUAL_DISK_VOLUME_SOURCE = CORE_V1.struct('VsphereVirtualDiskVolumeSource', {
  volumePath: [1, s.string, required, described('Path of the vSphere virtual disk.')],
  fsType: [2, s.string, FS_TYPE],
  storagePolicyName: [3, s.string, described('Name of the storage policy profile.')],
  storagePolicyID: [4, s.string, described('ID of the storage policy profile.')],
});

const QUOBYTE_VOLUME_SOURCE = CORE_V1.struct('QuobyteVolumeSource', {
  registry: [1, s.string, required, described('Quobyte registries, as host:port, separated by commas.')],
  volume: [2, s.string, required, described('Name of the Quobyte volume.')],
  readOnly: [3, s.boolean, READ_ONLY],
  user: [4, s.string, described('User the volume is reached as; the user of the service account by default.')],
  group: [5, s.string, described('Group the volume is reached as; none by default.')],
});

const AZURE_DISK_VOLUME_SOURCE = CORE_V1.struct('AzureDiskVolumeSource', {
  diskName: [1, s.string, required, described('Name of the data disk in blob storage.')],
  diskURI: [2, s.string, required, described('URI of the data disk.')],
  cachingMode: [3, s.string, pointer, described('Host caching: None, ReadOnly or ReadWrite.')],
  fsType: [4, s.string, pointer, FS_TYPE],
  readOnly: [5, s.boolean, pointer, READ_ONLY],
  kind: [6, s.string, pointer, described('Kind of disk: Shared, Dedicated or Managed.')],
});

const PHOTON_PERSISTENT_DISK_VOLUME_SOURCE = CORE_V1.struct('PhotonPersistentDiskVolumeSource', {
  pdID: [1, s.string, required, described('ID of the Photon Controller persistent disk.')],
  fsType: [2, s.string, FS_TYPE],
});

const SECRET_PROJECTION = CORE_V1.struct('SecretProjection', {
  localObjectReference: [1, LOCAL_OBJECT_REFERENCE, inline],
  items: [2, s.list(KEY_TO_PATH), PROJECTED_KEYS],
  optional: [4, s.boolean, pointer, described('Whether the pod may start when the secret or one of its keys is missing.')],
});

const DOWNWARD_API_PROJECTION = CORE_V1.struct('DownwardAPIProjection', {
  items: [1, s.list(DOWNWARD_API_VOLUME_FILE), described('Files to write, each from a pod field or a container resource.')],
});

const CONFIG_MAP_PROJECTION = CORE_V1.struct('ConfigMapProjection', {
  localObjectReference: [1, LOCAL_OBJECT_REFERENCE, inline],
  items: [2, s.list(KEY_TO_PATH), PROJECTED_KEYS],
  optional: [4, s.boolean, pointer, described('Whether the pod may start when the config map or one of its keys is missing.')],
});

const VOLUME_PROJECTION = CORE_V1.struct('VolumeProjection', {
  secret: [1, SECRET_PROJECTION, described('Secret whose keys are projected.')],
  downwardAPI: [2, DOWNWARD_API_PROJECTION, described('Pod fields and container resources projected as files.')],
  configMap: [3, CONFIG_MAP_PROJECTION, described('Config map whose keys are projected.')],
});

const PROJECTED_VOLUME_SOURCE = CORE_V1.struct('ProjectedVolumeSource', {
  sources: [1, s.list(VOLUME_PROJECTION), required, described('Sources whose files are put together in the volume.')],
  defaultMode: [2, s.int32, pointer, FILE_MODE],
});

const PORTWORX_VOLUME_SOURCE = CORE_V1.struct('PortworxVolumeSource', {
  volumeID: [1, s.string, required, described('ID of the Portworx volume.')],
  fsType: [2, s.string, FS_TYPE],
  readOnly: [3, s.boolean, READ_ONLY],
});

const SCALE_IO_VOLUME_SOURCE = CORE_V1.struct('ScaleIOVolumeSource', {
  gateway: [1, s.string, required, described('Address of the ScaleIO API gateway.')],
  system: [2, s.string, required, described('Name of the ScaleIO storage system.')],
  secretRef: [3, LOCAL_OBJECT_REFERENCE, required, described('Secret holding the credentials of the ScaleIO user.')],
  sslEnabled: [4, s.boolean, described('Whether the gateway is reached over SSL.')],
  protectionDomain: [5, s.string, described('ScaleIO protection domain of the storage.')],
  storagePool: [6, s.string, described('ScaleIO storage pool of the volume.')],
  storageMode: [7, s.string, described('How the volume is provisioned: ThickProvisioned or ThinProvisioned.')],
  volumeName: [8, s.string, described('Name of a ScaleIO volume that already exists.')],
  fsType: [9, s.string, FS_TYPE],
  readOnly: [10, s.boolean, READ_ONLY],
});

const STORAGE_OS_VOLUME_SOURCE = CORE_V1.struct('StorageOSVolumeSource', {
  volumeName: [1, s.string, described('Name of the StorageOS volume, unique in its namespace.')],
  volumeNamespace: [2, s.string, described('StorageOS namespace of the volume; the namespace of the pod by default.')],
  fsType: [3, s.string, FS_TYPE],
  readOnly: [4, s.boolean, READ_ONLY],
  secretRef: [5, LOCAL_OBJECT_REFERENCE, described('Secret holding the credentials of the StorageOS API.')],
});

/** The volume sources of 1.7: a volume names exactly one, beside its name (an embedded struct). */
export const VOLUME_SOURCE = CORE_V1.struct('VolumeSource', {
  hostPath: [1, HOST_PATH_VOLUME_SOURCE, described('A file or directory of the node.')],
  emptyDir: [2, EMPTY_DIR_VOLUME_SOURCE, described('An empty directory that lives as long as the pod.')],
  gcePersistentDisk: [3, GCE_PERSISTENT_DISK_VOLUME_SOURCE, described('A GCE persistent disk.')],
  awsElasticBlockStore: [4, AWS_ELASTIC_BLOCK_STORE_VOLUME_SOURCE, described('An AWS EBS volume.')],
  gitRepo: [5, GIT_REPO_VOLUME_SOURCE, described('A directory holding a clone of a git repository.')],
  secret: [6, SECRET_VOLUME_SOURCE, described('The keys of a secret, as files.')],
  nfs: [7, NFS_VOLUME_SOURCE, described('An NFS export.')],
  iscsi: [8, ISCSI_VOLUME_SOURCE, described('An iSCSI disk.')],
  glusterfs: [9, GLUSTERFS_VOLUME_SOURCE, described('A Glusterfs volume.')],
  persistentVolumeClaim: [10, PERSISTENT_VOLUME_CLAIM_VOLUME_SOURCE, described('The persistent volume bound to a claim.')],
  rbd: [11, RBD_VOLUME_SOURCE, described('A Ceph RADOS block device.')],
  flexVolume: [12, FLEX_VOLUME_SOURCE, described('A volume of a FlexVolume driver plugin.')],
  cinder: [13, CINDER_VOLUME_SOURCE, described('An OpenStack Cinder volume.')],
  cephfs: [14, CEPH_FS_VOLUME_SOURCE, described('A CephFS filesystem.')],
  flocker: [15, FLOCKER_VOLUME_SOURCE, described('A Flocker dataset.')],
  downwardAPI: [16, DOWNWARD_API_VOLUME_SOURCE, described('Pod fields and container resources, as files.')],
  fc: [17, FC_VOLUME_SOURCE, described('A Fibre Channel disk.')],
  azureFile: [18, AZURE_FILE_VOLUME_SOURCE, described('An Azure File share.')],
  configMap: [19, CONFIG_MAP_VOLUME_SOURCE, described('The keys of a config map, as files.')],
  vsphereVolume: [20, VSPHERE_VIRTUAL_DISK_VOLUME_SOURCE, described('A vSphere virtual disk.')],
  quobyte: [21, QUOBYTE_VOLUME_SOURCE, described('A Quobyte volume.')],
  azureDisk: [22, AZURE_DISK_VOLUME_SOURCE, described('An Azure data disk.')],
  photonPersistentDisk: [23, PHOTON_PERSISTENT_DISK_VOLUME_SOURCE, described('A Photon Controller persistent disk.')],
  projected: [26, PROJECTED_VOLUME_SOURCE, described('Secrets, config maps and pod fields together in one directory.')],
  portworxVolume: [24, PORTWORX_VOLUME_SOURCE, described('A Portworx volume.')],
  scaleIO: [25, SCALE_IO_VOLUME_SOURCE, described('A ScaleIO volume.')],
  storageos: [27, STORAGE_OS_VOLUME_SOURCE, described('A StorageOS volume.')],
});

export const VOLUME = CORE_V1.struct('Volume', {
  name: [1, s.string, required, described('Name of the volume, by which containers mount it.')],
  volumeSource: [2, VOLUME_SOURCE, inline],
});

export type Volume = TypeOf<typeof VOLUME>;
