import { OBJECT_META } from '../../apimachinery/meta/object-meta-schema';
import { goPackage } from '../../apimachinery/schema/go-packages';
import { atomic, required, s } from '../../apimachinery/schema/schema';

/** The two Scale kinds: extensions' (a selector map and its text) and autoscaling's (the text only). */
const EXTENSIONS_V1BETA1 = goPackage('k8s.io.api.extensions.v1beta1', 'extensions/v1beta1');
const AUTOSCALING_V1 = goPackage('k8s.io.api.autoscaling.v1', 'autoscaling/v1');

const EXTENSIONS_SCALE_SPEC = EXTENSIONS_V1BETA1.struct('ScaleSpec', {
  replicas: [1, s.int32],
});

const EXTENSIONS_SCALE_STATUS = EXTENSIONS_V1BETA1.struct('ScaleStatus', {
  replicas: [1, s.int32, required],
  selector: [2, s.stringMap, atomic],
  targetSelector: [3, s.string],
});

export const EXTENSIONS_SCALE_KIND = EXTENSIONS_V1BETA1.struct('Scale', {
  metadata: [1, OBJECT_META],
  spec: [2, EXTENSIONS_SCALE_SPEC],
  status: [3, EXTENSIONS_SCALE_STATUS],
});

const AUTOSCALING_SCALE_SPEC = AUTOSCALING_V1.struct('ScaleSpec', {
  replicas: [1, s.int32],
});

const AUTOSCALING_SCALE_STATUS = AUTOSCALING_V1.struct('ScaleStatus', {
  replicas: [1, s.int32, required],
  selector: [2, s.string],
});

export const AUTOSCALING_SCALE_KIND = AUTOSCALING_V1.struct('Scale', {
  metadata: [1, OBJECT_META],
  spec: [2, AUTOSCALING_SCALE_SPEC],
  status: [3, AUTOSCALING_SCALE_STATUS],
});
