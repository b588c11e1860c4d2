/**
 * A span of time in words, as exact as the agent's own limit: "1 minute", "10 minutes",
 * "90 seconds", "1 hour 30 minutes". Whole seconds; nothing is rounded up or down to a
 * neater number, so what a person reads is what the agent enforces.
 */
export function durationText(totalSeconds: number): string {
  const seconds = Number.isFinite(totalSeconds) ? Math.max(0, Math.round(totalSeconds)) : 0;
  const units: [number, string][] = [
    [Math.floor(seconds / 3600), 'hour'],
    [Math.floor((seconds % 3600) / 60), 'minute'],
    [seconds % 60, 'second'],
  ];
  // Under two minutes in seconds alone: "90 seconds" reads better than "1 minute 30 seconds".
  if (seconds < 120 && seconds % 60 !== 0) return counted(seconds, 'second');
  const parts = units.filter(([n]) => n > 0).map(([n, unit]) => counted(n, unit));
  return parts.length > 0 ? parts.join(' ') : counted(0, 'second');
}

function counted(n: number, unit: string): string {
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}
