import { flagsOf } from './command-line';
import { SETTING_NAMES, Settings } from './settings';
import { descriptionOf } from './setting-description';

/** A setting's default as the README's table writes it: `unset` for none. */
export function defaultOf(setting: keyof Settings): string {
  const value = new Settings()[setting];
  return value === undefined || value === '' ? 'unset' : String(value);
}

/** A setting's meaning, for a terminal (the README's code marks left out). */
export const meaningOf = (setting: keyof Settings): string => descriptionOf(Settings.prototype, setting);

/** What `--help` prints: every flag with its environment variable, default and meaning. */
export function helpText(): string {
  const entries = SETTING_NAMES.map((setting) => {
    const flags = flagsOf(setting).join(', ');
    return `  ${flags}\n      ${setting}, default ${defaultOf(setting)}: ${meaningOf(setting).replace(/`/g, '')}`;
  });
  return [
    'pgkube: a Kubernetes-compatible API server that keeps its objects in PostgreSQL',
    '',
    'Usage: node dist/main.js [--flag=value | --flag value] ...   (npm start -- --flag=value)',
    '',
    'Every setting is a flag or an environment variable (a flag wins):',
    '',
    ...entries,
    '',
  ].join('\n');
}
