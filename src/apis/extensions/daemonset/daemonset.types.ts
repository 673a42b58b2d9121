import { PodController } from '../../workloads/controller.types';

export interface DaemonSet extends PodController {
  spec?: PodController['spec'] & {
    updateStrategy?: { type?: string; rollingUpdate?: { maxUnavailable?: number | string } };
    templateGeneration?: number;
  };
}
