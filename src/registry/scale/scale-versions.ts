import { isEmptySelector, LabelSelector, selectorText } from '../../apimachinery/selectors/label-selector-object';
import { defineKind } from '../define-kind';
import { defineStrategy, ScaleVersion } from '../kind-definition';
import { StructSchema } from '../../apimachinery/schema/schema';
import { AUTOSCALING_SCALE_KIND, EXTENSIONS_SCALE_KIND } from './scale.schema';
import { nameRules } from '../../apimachinery/validation/names';

const scaleKind = (group: string, version: string, shape: StructSchema) =>
  defineKind(
    { group, version },
    {
      resource: 'scale',
      kind: 'Scale',
      namespaced: true,
      strategy: defineStrategy({
        nameRule: nameRules.dns1123Subdomain,
        shape,
      }),
    },
  );

/** A Scale whose status has the selector as a map (only when it has no expressions) and as text (extensions', apps' betas'). */
export const labelMapScale = (group: string, version: string, shape: StructSchema): ScaleVersion => ({
  kind: scaleKind(group, version, shape),
  status(replicas: number, selector: LabelSelector | string | undefined) {
    const status: Record<string, unknown> = { replicas };
    if (typeof selector === 'string') return selector ? { ...status, targetSelector: selector } : status;
    if (selector && !selector.matchExpressions?.length && !isEmptySelector(selector)) status.selector = selector.matchLabels;
    const text = selectorText(selector);
    if (text) status.targetSelector = text;
    return status;
  },
});

export const EXTENSIONS_SCALE: ScaleVersion = labelMapScale('extensions', 'v1beta1', EXTENSIONS_SCALE_KIND);

/** autoscaling/v1 Scale, served by core ReplicationControllers: the selector as text. */
export const AUTOSCALING_SCALE: ScaleVersion = {
  kind: scaleKind('autoscaling', 'v1', AUTOSCALING_SCALE_KIND),
  status(replicas: number, selector: LabelSelector | string | undefined) {
    const text = typeof selector === 'string' ? selector : selectorText(selector);
    return text ? { replicas, selector: text } : { replicas };
  },
};
