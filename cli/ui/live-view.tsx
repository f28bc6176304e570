import { Box, Text, render, useApp, useInput, useStdout } from 'ink';
import { useEffect, useReducer, useState } from 'react';
import type { LiveCell, LiveFeed, LiveRow } from './live-feed.js';
import { StatusLine } from './status-line.js';

export interface LiveViewProps {
  title: string;
  /** Dim lines under the title: the Company, the URL, "following since …". */
  details: string[];
  feed: LiveFeed;
  /** What a row is, for the count in the status line: `event` → "3 events". */
  noun?: string;
  color: boolean;
  now: () => number;
  /** Called once when the user presses q or Ctrl-C, before the view unmounts. */
  onQuit: () => void;
}

/** Lines the view needs besides the rows: title, details, status. */
const CHROME = 2;

/** A live view: header, the newest rows that fit on the screen, a status line; q quits, p pauses. */
export function LiveView({ title, details, feed, noun = 'event', color, now, onQuit }: LiveViewProps) {
  const { exit } = useApp();
  const { stdout } = useStdout();
  const [, refresh] = useReducer((n: number) => n + 1, 0);
  const [frozen, setFrozen] = useState<{ rows: LiveRow[]; total: number } | null>(null);
  useEffect(() => feed.subscribe(refresh), [feed]);
  // How many rows fit depends on the terminal's height: recount when it is resized.
  useEffect(() => {
    stdout.on('resize', refresh);
    return () => void stdout.off('resize', refresh);
  }, [stdout]);

  // The reconnect countdown needs a tick; only while reconnecting, so an idle view costs nothing.
  const status = feed.status();
  useEffect(() => {
    if (status.state !== 'reconnecting') return;
    const timer = setInterval(refresh, 1000);
    return () => clearInterval(timer);
  }, [status]);

  useInput((input, key) => {
    if (input === 'q' || (key.ctrl && input === 'c')) {
      onQuit();
      exit();
    } else if (input === 'p') {
      setFrozen((f) => (f ? null : { rows: feed.rows(), total: feed.total() }));
    }
  });

  // Stay shorter than the terminal: a frame as tall as the screen makes Ink clear it on every render.
  const height = stdout.rows || 24;
  const room = Math.max(1, height - CHROME - details.length - 1);
  const rows = (frozen?.rows ?? feed.rows()).slice(-room);
  return (
    <Box flexDirection="column">
      <Text bold={color} wrap="truncate-end">
        {title}
      </Text>
      {details.map((d) => (
        <Text key={d} dimColor={color} wrap="truncate-end">
          {d}
        </Text>
      ))}
      {rows.map((row) => (
        <Text key={row.key} wrap="truncate-end">
          {row.cells.map((cell, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a row's cells are fixed columns; position is their identity
            <Cell key={i} cell={cell} first={i === 0} color={color} />
          ))}
        </Text>
      ))}
      <StatusLine
        status={status}
        paused={frozen !== null}
        newWhilePaused={frozen ? feed.total() - frozen.total : 0}
        shown={feed.total()}
        noun={noun}
        now={now()}
        color={color}
      />
    </Box>
  );
}

function Cell({ cell, first, color }: { cell: LiveCell; first: boolean; color: boolean }) {
  const text = first ? cell.text : `  ${cell.text}`;
  if (!color) return <Text>{text}</Text>;
  return (
    <Text color={cell.color} dimColor={cell.dim} bold={cell.bold}>
      {text}
    </Text>
  );
}

export interface LiveStreams {
  stdout: NodeJS.WritableStream;
  stdin: NodeJS.ReadableStream;
  stderr: NodeJS.WritableStream;
}

export interface MountedView {
  /** Resolves once the view is gone (the user quit, or `unmount` was called). */
  closed: Promise<void>;
  unmount(): void;
}

/** Renders the view on the given streams. Ctrl-C is handled by the view (raw mode), not by Ink. */
export function mountLiveView(
  props: LiveViewProps,
  streams: LiveStreams,
  options: { debug?: boolean } = {},
): MountedView {
  const instance = render(<LiveView {...props} />, {
    stdout: streams.stdout as NodeJS.WriteStream,
    stdin: streams.stdin as NodeJS.ReadStream,
    stderr: streams.stderr as NodeJS.WriteStream,
    exitOnCtrlC: false,
    patchConsole: false,
    debug: options.debug,
  });
  return {
    closed: instance.waitUntilExit().then(
      () => undefined,
      () => undefined,
    ),
    unmount: () => instance.unmount(),
  };
}
