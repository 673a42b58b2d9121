import { AGE_COLUMN, column, NAME_COLUMN, TableColumn } from '../../../registry/table/table-column';
import { ConfigMap } from './configmap.schema';

const count = (values: object | undefined) => Object.keys(values ?? {}).length;

/** `kubectl get configmaps`: NAME DATA AGE, DATA counting the keys of data and binaryData. */
export const CONFIG_MAP_COLUMNS: readonly TableColumn[] = [
  NAME_COLUMN,
  column('Data', 'string', 'Number of keys in data and binaryData.', [['data'], ['binaryData']], (object) => {
    const configMap = object as ConfigMap;
    return count(configMap.data) + count(configMap.binaryData);
  }),
  AGE_COLUMN,
];
