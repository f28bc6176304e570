/**
 * Strict UTF-8 decoding for request bodies. Buffer#toString replaces invalid bytes with U+FFFD, so
 * a client's bytes would be stored as something it never sent (and a signature over the raw bytes
 * would vouch for other text); `fatal` makes the decoder throw instead. A BOM is kept, so it stays
 * a JSON syntax error as before.
 */
const strict = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/** The text of `raw`, or null when it is not valid UTF-8 (overlong forms and encoded surrogates included). */
export function decodeUtf8(raw: Uint8Array): string | null {
  try {
    return strict.decode(raw);
  } catch {
    return null;
  }
}
