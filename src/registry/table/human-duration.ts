/**
 * A duration as kubectl's printers write an age ("45s", "4m30s", "3h12m", "5d", "2y30d"): exact while it is short,
 * coarser as it grows; more than a second in the future is `<invalid>`.
 */
export function humanDuration(ms: number): string {
  const seconds = Math.floor(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 0) return '0s';
  if (seconds < 120) return `${seconds}s`;
  const minutes = Math.floor(seconds / 60);
  const pair = (big: number, bigUnit: string, small: number, smallUnit: string) => (small === 0 ? `${big}${bigUnit}` : `${big}${bigUnit}${small}${smallUnit}`);
  if (minutes < 10) return pair(minutes, 'm', seconds % 60, 's');
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.floor(minutes / 60);
  if (hours < 8) return pair(hours, 'h', minutes % 60, 'm');
  if (hours < 48) return `${hours}h`;
  const days = Math.floor(hours / 24);
  if (hours < 24 * 8) return pair(days, 'd', hours % 24, 'h');
  if (days < 365 * 2) return `${days}d`;
  const years = Math.floor(days / 365);
  if (days < 365 * 8) return pair(years, 'y', days % 365, 'd');
  return `${years}y`;
}
