/**
 * Failures between the relay and the platform, as sentences that say what to do. They reach the
 * user inside a JSON-RPC error (Claude Desktop shows it as the reason a call or initialize failed).
 */

/** The daemon did not answer at all (connection refused, DNS, TLS). */
export function unreachable(url: string, err: unknown): string {
  const cause = (err as { cause?: { code?: string; message?: string } }).cause;
  return `Cannot reach the svc daemon at ${url} (${cause?.code ?? cause?.message ?? (err as Error).message}). Start it with 'svc daemon start', or set SVC_URL to the platform's address.`;
}

/** An HTTP refusal; `text` is the body (svc's `{ error, code }`, or anything a proxy sent). */
export function explainRefusal(status: number, text: string | null | undefined, url: string): string {
  let said = (text ?? '').slice(0, 200);
  try {
    const body = JSON.parse(text ?? '') as { error?: unknown };
    if (typeof body.error === 'string') said = body.error;
    else if (body.error && typeof (body.error as { message?: unknown }).message === 'string')
      said = (body.error as { message: string }).message;
  } catch {
    // not JSON: the raw text, cut short, is the best we have
  }
  if (status === 401)
    return `The platform refused the keys (HTTP 401: ${said}). Check SVC_SECRET_KEY and SVC_ACCOUNT_KEY, or create a key with 'svc keys create --root <company> --name <label>'.`;
  if (status === 402)
    return `${said} (HTTP 402). MCP access needs the company or owner tier; on a local daemon run 'svc admin tier YOUR-EMAIL company' ('svc whoami' shows it).`;
  if (status === 404) return `No MCP endpoint at ${url}/api/mcp (HTTP 404). Check SVC_URL.`;
  return `The svc daemon answered HTTP ${status}: ${said}`;
}

export const NO_SECRET_KEY =
  "No secret key: set SVC_SECRET_KEY (and SVC_ACCOUNT_KEY) in the MCP client's environment, or create one with 'svc keys create --root <company> --name <label>' and select the Company with 'svc companies use <name>'.";

/** The JSON-RPC error code for every relay-made error: the generic server error (-32001 is the SDK's request time-out). */
export const RELAY_ERROR = -32000;
