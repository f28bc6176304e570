import { test } from 'uvu';
import * as assert from 'uvu/assert';
import { CallToolRequestSchema, isJSONRPCRequest, type JSONRPCRequest } from '@modelcontextprotocol/sdk/types.js';
import { checkRequest, classify, isCommonRequest, isCommonToolCall } from '../../../daemon/mcp/jsonrpc.js';

// The hand checks are a shortcut past the SDK's zod schemas: they may say "not sure" to anything,
// but never "yes" to a message the schema refuses. Every combination below is parsed from JSON,
// as the endpoint receives it.
const IDS = ['1', '"a"', '-7', '1.5', '9007199254740991', '9007199254740992', 'null', '{}'];
const METHODS = ['"tools/call"', '"x"', '1'];
const ARGUMENTS = [undefined, '{}', '{"action":"list","limit":20}', '{"__proto__":{"a":1}}', '[]', 'null', '"x"', '1'];
const PARAMS = [
  undefined,
  '{}',
  '[]',
  'null',
  '"p"',
  '{"_meta":{}}',
  '{"_meta":{"progressToken":1}}',
  '{"_meta":"bad"}',
  '{"__proto__":{"_meta":"bad"}}',
  ...ARGUMENTS.flatMap((args) =>
    ['"events"', '1', 'null', undefined].flatMap((name) => {
      const fields = [name === undefined ? null : `"name":${name}`, args === undefined ? null : `"arguments":${args}`];
      const base = fields.filter(Boolean).join(',');
      return [
        `{${base}}`,
        `{${[base, '"task":{"ttl":5}'].filter(Boolean).join(',')}}`,
        `{${[base, '"task":"bad"'].filter(Boolean).join(',')}}`,
        `{${[base, '"_meta":{"progressToken":"t"}'].filter(Boolean).join(',')}}`,
        `{${[base, '"extra":true'].filter(Boolean).join(',')}}`,
      ];
    }),
  ),
];
const EXTRA = [undefined, '"foo":1', '"__proto__":{}'];
const JSONRPC = ['"2.0"', '"1.0"', undefined];

function* messages(): Generator<string> {
  for (const jsonrpc of JSONRPC)
    for (const id of [...IDS, undefined])
      for (const method of [...METHODS, undefined])
        for (const params of PARAMS)
          for (const extra of EXTRA) {
            const fields = [
              jsonrpc === undefined ? null : `"jsonrpc":${jsonrpc}`,
              id === undefined ? null : `"id":${id}`,
              method === undefined ? null : `"method":${method}`,
              params === undefined ? null : `"params":${params}`,
              extra ?? null,
            ];
            yield `{${fields.filter(Boolean).join(',')}}`;
          }
}

test('a request the hand check accepts is one the SDK schema accepts, and classify answers as the schema does', () => {
  let accepted = 0;
  let total = 0;
  for (const text of messages()) {
    total++;
    const value: unknown = JSON.parse(text);
    const schema = isJSONRPCRequest(value);
    if (isCommonRequest(value)) {
      accepted++;
      assert.ok(schema, `hand check accepted what the schema refuses: ${text}`);
    }
    assert.is(classify(value).kind === 'request', schema, text);
  }
  assert.ok(accepted > 100 && accepted < total, `the corpus exercises both answers (${accepted} of ${total})`);
  for (const odd of [null, 1, 'x', [], Object.create(null), new Date()]) assert.not.ok(isCommonRequest(odd));
});

test('a tools/call the hand check accepts is one CallToolRequestSchema accepts, and checkRequest answers as before', () => {
  let accepted = 0;
  for (const text of messages()) {
    const value: unknown = JSON.parse(text);
    if (!isJSONRPCRequest(value)) continue;
    const message = value as JSONRPCRequest;
    const schema = CallToolRequestSchema.safeParse(message).success;
    if (isCommonToolCall(message)) {
      accepted++;
      assert.ok(schema, `hand check accepted what the schema refuses: ${text}`);
    }
    if (message.method === 'tools/call') assert.is(checkRequest(message) === null, schema, text);
  }
  assert.ok(accepted > 20, `the corpus has common tool calls (${accepted})`);
  const listCall = {
    jsonrpc: '2.0',
    id: 1,
    method: 'tools/call',
    params: { name: 'events', arguments: { action: 'list' } },
  };
  assert.ok(
    isCommonRequest(listCall) && isCommonToolCall(listCall as JSONRPCRequest),
    'the everyday call takes the shortcut',
  );
});

test.run();
