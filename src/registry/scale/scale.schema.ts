import { OBJECT_META } from '../../apimachinery/meta/object-meta-schema';
import { GoPackage, goPackage } from '../../apimachinery/schema/go-packages';
import { atomic, described, required, s } from '../../apimachinery/schema/schema';

/** The two Scale kinds: extensions' (a selector map and its text) and autoscaling's (the text only). */
const EXTENSIONS_V1BETA1 = goPackage('k8s.io.api.extensions.v1beta1', 'extensions/v1beta1');
const AUTOSCALING_V1 = goPackage('k8s.io.api.autoscaling.v1', 'autoscaling/v1');

/** The Scale of extensions/v1beta1, apps/v1beta1 and apps/v1beta2: the selector as a map and as text. */
export function labelMapScaleType(pkg: GoPackage) {
  const spec = pkg.struct('ScaleSpec', {
    replicas: [1, s.int32, described('Number of replicas wanted.')],
  });
  const status = pkg.struct('ScaleStatus', {
    replicas: [1, s.int32, required, described('Number of replicas observed.')],
    selector: [2, s.stringMap, atomic, described('Labels the pods of the scaled object carry.')],
    targetSelector: [3, s.string, described('Selector of the pods, in label-selector text.')],
  });
  return pkg.struct('Scale', {
    metadata: [1, OBJECT_META, described('Metadata of the scaled object.')],
    spec: [2, spec, described('Replica count wanted.')],
    status: [3, status, described('Replica count observed, and the selector of the pods.')],
  });
}

export const EXTENSIONS_SCALE_KIND = labelMapScaleType(EXTENSIONS_V1BETA1);

const AUTOSCALING_SCALE_SPEC = AUTOSCALING_V1.struct('ScaleSpec', {
  replicas: [1, s.int32, described('Number of replicas wanted.')],
});

const AUTOSCALING_SCALE_STATUS = AUTOSCALING_V1.struct('ScaleStatus', {
  replicas: [1, s.int32, required, described('Number of replicas observed.')],
  selector: [2, s.string, described('Selector of the pods, in label-selector text.')],
});

export const AUTOSCALING_SCALE_KIND = AUTOSCALING_V1.struct('Scale', {
  metadata: [1, OBJECT_META, described('Metadata of the scaled object.')],
  spec: [2, AUTOSCALING_SCALE_SPEC, described('Replica count wanted.')],
  status: [3, AUTOSCALING_SCALE_STATUS, described('Replica count observed, and the selector of the pods.')],
});
