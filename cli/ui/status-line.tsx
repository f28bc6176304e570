import { Text } from 'ink';
import type { LiveStatus } from './live-feed.js';

export interface StatusLineProps {
  status: LiveStatus;
  paused: boolean;
  /** Rows that arrived since the pause (shown so the user knows what resuming brings). */
  newWhilePaused: number;
  shown: number;
  noun: string;
  now: number;
  color: boolean;
}

/** The bottom line: connection state, pause state, the count, and the keys. */
export function StatusLine({ status, paused, newWhilePaused, shown, noun, now, color }: StatusLineProps) {
  const [label, tint] = describe(status, now);
  const pause = paused ? `paused (${newWhilePaused} new)` : '';
  const keys = paused ? 'p resume · q quit' : 'p pause · q quit';
  return (
    <Text wrap="truncate-end">
      <Text color={color ? (paused ? 'yellow' : tint) : undefined} bold={color}>
        {pause || label}
      </Text>
      {pause ? <Text>{` · ${label}`}</Text> : null}
      <Text dimColor={color}>{` · ${shown} ${noun}${shown === 1 ? '' : 's'} · ${keys}`}</Text>
    </Text>
  );
}

function describe(status: LiveStatus, now: number): [string, string] {
  if (status.state === 'connected') return ['● connected', 'green'];
  if (status.state === 'connecting') return ['○ connecting', 'yellow'];
  const seconds = Math.max(0, Math.ceil((status.until - now) / 1000));
  return [
    seconds > 0 ? `○ reconnecting in ${seconds}s (${status.reason})` : `○ reconnecting… (${status.reason})`,
    'red',
  ];
}
