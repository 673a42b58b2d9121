import { PodController } from '../../workloads/controller.types';

export type IntOrString = number | string;

export interface Deployment extends PodController {
  spec?: PodController['spec'] & {
    strategy?: { type?: string; rollingUpdate?: { maxUnavailable?: IntOrString; maxSurge?: IntOrString } };
    paused?: boolean;
    rollbackTo?: { revision?: number };
    progressDeadlineSeconds?: number;
  };
}
