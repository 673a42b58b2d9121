import { FieldError, fieldErrors } from '../../../apimachinery/errors/field-error';
import { nonNegative } from '../../../apimachinery/validation/numbers';
import { portName, portNumber } from '../../../apimachinery/validation/names';
import { Handler, Probe } from './container.schema';

/** A port given as a number or a name: the apiserver's ValidatePortNumOrName. */
export function validatePortNumOrName(port: number | string = 0, field: string): FieldError[] {
  if (typeof port === 'number') return portNumber(port).map((m) => fieldErrors.invalid(field, port, m));
  return portName(port).map((m) => fieldErrors.invalid(field, port, m));
}

const HANDLER_TYPES = ['exec', 'httpGet', 'tcpSocket'] as const;

/** A probe's or lifecycle hook's action: exactly one of exec, httpGet, tcpSocket, each well formed. */
export function validateHandler(handler: Handler, field: string): FieldError[] {
  const errors: FieldError[] = [];
  const given = HANDLER_TYPES.filter((type) => handler[type] !== undefined);
  if (given.length === 0) errors.push(fieldErrors.required(field, 'must specify a handler type'));
  for (const extra of given.slice(1)) errors.push(fieldErrors.forbidden(`${field}.${extra}`, 'may not specify more than 1 handler type'));
  const [type] = given;
  if (type === 'exec' && !handler.exec?.command?.length) errors.push(fieldErrors.required(`${field}.exec.command`));
  if (type === 'httpGet') {
    const action = handler.httpGet!;
    if (!action.path) errors.push(fieldErrors.required(`${field}.httpGet.path`));
    errors.push(...validatePortNumOrName(action.port, `${field}.httpGet.port`));
    if (action.scheme !== 'HTTP' && action.scheme !== 'HTTPS') {
      errors.push(fieldErrors.notSupported(`${field}.httpGet.scheme`, action.scheme ?? '', ['HTTP', 'HTTPS']));
    }
  }
  if (type === 'tcpSocket') errors.push(...validatePortNumOrName(handler.tcpSocket?.port, `${field}.tcpSocket.port`));
  return errors;
}

export function validateProbe(probe: Probe | undefined, field: string): FieldError[] {
  if (!probe) return [];
  return [
    ...validateHandler(probe, field),
    ...(['initialDelaySeconds', 'timeoutSeconds', 'periodSeconds', 'successThreshold', 'failureThreshold'] as const).flatMap((name) =>
      nonNegative(probe[name], `${field}.${name}`),
    ),
  ];
}
