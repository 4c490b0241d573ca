// The helpers every generated module carries (src/generate/typescript/
// runtime.ts), on their own: tests/generate_typescript.rs writes them as the
// module `./runtime` (exporting each helper) beside this file, compiles both
// with tsc and runs this with node. It exits non-zero on the first failure.

import assert from "node:assert/strict";
import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";
import {
  _batchGet,
  _interleave,
  _merge,
  _number,
  _order,
  _shardOf,
  type Item,
} from "./runtime";

async function* stream(items: Item[]): AsyncGenerator<Item> {
  for (const item of items) {
    await Promise.resolve();
    yield item;
  }
}

async function all(items: AsyncGenerator<Item>): Promise<Item[]> {
  const out: Item[] = [];
  for await (const item of items) out.push(item);
  return out;
}

async function main(): Promise<void> {
  // FNV-1a 32 over UTF-8, as src/check/shard.rs (published vectors, then multi-byte text).
  const max = 0xffffffff;
  assert.equal(_shardOf("", max), 0x811c9dc5);
  assert.equal(_shardOf("a", max), 0xe40c292c);
  assert.equal(_shardOf("foobar", max), 0xbf9cf968);
  assert.equal(_shardOf("ü", max), 0x119dd44a);
  assert.equal(_shardOf("€", max), 0x298f832b);
  assert.equal(_shardOf("😀x", max), 0xb8f2d250);
  assert.equal(_shardOf("u_1", 10), 6);

  // Numbers as DynamoDB stores them.
  assert.equal(_number("007"), "7");
  assert.equal(_number("1.50"), "1.5");
  assert.equal(_number("-0"), "0");
  assert.equal(_number("-0012.0100"), "-12.01");
  assert.equal(_number("abc"), "abc");

  // DynamoDB's order: UTF-8 bytes, not UTF-16 code units; numbers by value.
  assert.ok(_order({ S: "\uffff" }, { S: "\u{10000}" }) < 0, "U+FFFF before U+10000");
  assert.ok("\uffff" > "\u{10000}", "(JavaScript's own order is the other way)");
  assert.ok(_order({ S: "a" }, { S: "ab" }) < 0);
  assert.ok(_order({ N: "9" }, { N: "10" }) < 0);
  assert.ok(_order({ N: "-1.5" }, { N: "-1" }) < 0);
  // Beyond a JS number's 53 bits: exact, as DynamoDB's 38 digits are.
  assert.ok(_order({ N: "9007199254740993" }, { N: "9007199254740992" }) > 0);
  assert.ok(_order({ N: "12345678901234567890.000000000000000001" }, { N: "12345678901234567890" }) > 0);
  assert.ok(_order({ N: "0.45" }, { N: "0.5" }) < 0);
  assert.ok(_order({ N: "-0.45" }, { N: "-0.5" }) > 0);
  assert.ok(_order({ N: "-2" }, { N: "1" }) < 0);
  assert.equal(_order({ N: "0" }, { N: "-0" }), 0);
  assert.equal(_order({ N: "1.50" }, { N: "1.5" }), 0);
  assert.equal(_order({ S: "x" }, { S: "x" }), 0);

  // The k-way merge of sorted shards, both directions, lazily complete.
  const n = (v: number): Item => ({ sk: { N: String(v) } });
  const up = await all(_merge([stream([n(1), n(4)]), stream([]), stream([n(2), n(3), n(5)])], "sk", true));
  assert.deepEqual(up.map((i) => i.sk?.N), ["1", "2", "3", "4", "5"]);
  const down = await all(_merge([stream([n(4), n(1)]), stream([n(5), n(3), n(2)])], "sk", false));
  assert.deepEqual(down.map((i) => i.sk?.N), ["5", "4", "3", "2", "1"]);
  const mixed = await all(_interleave([stream([n(1), n(2)]), stream([n(3)]), stream([])]));
  assert.deepEqual(mixed.map((i) => i.sk?.N).sort(), ["1", "2", "3"]);

  // BatchGetItem: each key once, 100 a request, UnprocessedKeys retried.
  const sent: number[] = [];
  let unprocessedOnce = true;
  const client = {
    send: async (command: { input: { RequestItems: Record<string, { Keys: Item[] }> } }) => {
      const keys = command.input.RequestItems.T?.Keys ?? [];
      sent.push(keys.length);
      if (unprocessedOnce && keys.length > 10) {
        unprocessedOnce = false;
        return {
          Responses: { T: keys.slice(10) },
          UnprocessedKeys: { T: { Keys: keys.slice(0, 10) } },
        };
      }
      return { Responses: { T: keys }, UnprocessedKeys: {} };
    },
  } as unknown as DynamoDBClient;
  const requests = Array.from({ length: 250 }, (_, i) => ({
    RequestItems: { T: { Keys: [{ pk: { S: `K${i % 230}` } }], ConsistentRead: false } },
  }));
  const items = await _batchGet(client, requests);
  assert.equal(items.length, 230, "230 distinct keys");
  assert.deepEqual(sent, [100, 10, 100, 30]);
  assert.equal(new Set(items.map((i) => i.pk?.S)).size, 230);

  process.stdout.write("runtime helpers ok\n");
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
