import { useEffect, useState } from 'react';
import { formatOffset } from '../../shared/durations.js';

/**
 * A small badge when `svc dev clock` moved this daemon's clock ahead (read once from /healthz), so
 * nobody wonders why every session just ended or a daily schedule fired at noon.
 */
export function ClockBadge() {
  const [offset, setOffset] = useState(0);
  useEffect(() => {
    fetch('/healthz', { cache: 'no-store' })
      .then((r) => r.json() as Promise<{ clock_offset_ms?: number }>)
      .then((h) => setOffset(h.clock_offset_ms ?? 0))
      .catch(() => setOffset(0));
  }, []);
  if (!offset) return null;
  return (
    <span className="clock-badge" title="svc dev clock moved this daemon's clock ahead of real time">
      clock {formatOffset(offset)}
    </span>
  );
}
