import type { JSONRPCErrorResponse, JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { classify, rpcError, RpcCode } from './jsonrpc.js';

/**
 * JSON-RPC batches: 2025-03-26 lets a client POST an array of requests and notifications (the
 * server MUST support receiving them); 2025-06-18 removed batching, so from that revision on an
 * array is an invalid request. The revision is the MCP-Protocol-Version header (sent after
 * initialize from 2025-06-18 on; absent means 2025-03-26). `initialize` may never be batched.
 */
export function batchRefusal(version: string, batch: unknown[]): JSONRPCErrorResponse | null {
  if (version !== '' && version >= '2025-06-18') {
    return rpcError(
      null,
      RpcCode.InvalidRequest,
      `Invalid request: JSON-RPC batches were removed in MCP 2025-06-18 (this request says ${version}); send one message per POST.`,
    );
  }
  if (batch.length === 0) return rpcError(null, RpcCode.InvalidRequest, 'Invalid request: an empty batch.');
  return null;
}

/**
 * Answers each element in order with `answerOne` (null for a notification or a response, which get
 * no answer) and returns the array of answers; an empty array means "202, no body".
 */
export async function answerBatch(
  batch: unknown[],
  answerOne: (message: JSONRPCMessage) => Promise<JSONRPCMessage | null>,
): Promise<JSONRPCMessage[]> {
  const answers: JSONRPCMessage[] = [];
  for (const element of batch) {
    const c = classify(element);
    if (c.kind === 'invalid') answers.push(c.error);
    else if (c.kind === 'request' && c.message.method === 'initialize') {
      answers.push(
        rpcError(
          c.message.id,
          RpcCode.InvalidRequest,
          'Invalid request: initialize must be sent on its own, not in a batch.',
        ),
      );
    } else {
      const answer = await answerOne(c.message);
      if (answer) answers.push(answer);
    }
  }
  return answers;
}
