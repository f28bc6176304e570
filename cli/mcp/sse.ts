/**
 * The `data:` payloads of a text/event-stream body, one per event (lines of one event joined by
 * newlines, as the SSE spec says). Comments, ids and retry fields are not ours to use.
 */
export function sseData(text: string): string[] {
  const out: string[] = [];
  for (const block of text.replace(/\r\n?/g, '\n').split('\n\n')) {
    const data = block
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).replace(/^ /, ''));
    if (data.length > 0) out.push(data.join('\n'));
  }
  return out;
}
