// The end-to-end driver of tests/generate_typescript.rs: runs one schema's
// scenario (tests/common/scenario.rs) through the modules `dyno generate
// typescript` wrote. It creates the tables, writes every record with the
// generated `put`, calls every generated read with the scenario's
// parameters (all pages), prints what each returned as JSON, and deletes
// the tables.
//
//   node driver.js SCENARIO.json     (endpoint in DYNO_TEST_ENDPOINT)
//
// Each scenario table names its compiled module in `module`.

import { readFileSync } from "node:fs";
import {
  CreateTableCommand,
  DeleteTableCommand,
  DynamoDBClient,
  type CreateTableCommandInput,
} from "@aws-sdk/client-dynamodb";

type Field = readonly [name: string, type: unknown, optional: boolean];

interface Table {
  readonly client: DynamoDBClient;
  readonly name?: string;
}

interface Module {
  schema: {
    entities: Record<
      string,
      { fields: readonly Field[]; put: (table: Table, record: never) => Promise<void> }
    >;
    reads: Record<
      string,
      { read: (table: Table, params: never) => unknown; returns: readonly string[]; batch: boolean }
    >;
  };
}

interface Scenario {
  tables: { name: string; endpoint_name: string; module: string; create: CreateTableCommandInput }[];
  puts: { table: string; entity: string; record: Record<string, unknown> }[];
  reads: { table: string; pattern: string; params: Record<string, unknown> }[];
}

/** A scenario record as the generated types have it: binary from base64. */
function toRecord(fields: readonly Field[], plain: Record<string, unknown>): Record<string, unknown> {
  const record: Record<string, unknown> = { ...plain };
  for (const [name, type] of fields) {
    const value = record[name];
    if (type === "binary" && typeof value === "string") {
      record[name] = new Uint8Array(Buffer.from(value, "base64"));
    }
  }
  return record;
}

/** A returned record in the scenario's typing: binary as base64. */
function toPlain(record: unknown): unknown {
  if (record === null || typeof record !== "object") {
    return record;
  }
  const plain: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(record)) {
    plain[name] = value instanceof Uint8Array ? Buffer.from(value).toString("base64") : value;
  }
  return plain;
}

async function collect(result: unknown): Promise<unknown[]> {
  if (result !== null && typeof result === "object" && Symbol.asyncIterator in result) {
    const items: unknown[] = [];
    for await (const item of result as AsyncIterable<unknown>) {
      items.push(item);
    }
    return items;
  }
  const value = await result;
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

async function main(): Promise<void> {
  const path = process.argv[2];
  if (path === undefined) {
    throw new Error("usage: node driver.js SCENARIO.json");
  }
  const endpoint = process.env.DYNO_TEST_ENDPOINT;
  if (endpoint === undefined || endpoint === "") {
    throw new Error("DYNO_TEST_ENDPOINT is not set");
  }
  const scenario = JSON.parse(readFileSync(path, "utf8")) as Scenario;
  const client = new DynamoDBClient({
    endpoint,
    region: "us-east-1",
    credentials: { accessKeyId: "x", secretAccessKey: "x" },
  });
  const modules = new Map<string, { module: Module; table: Table }>();
  for (const table of scenario.tables) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const module = require(table.module) as Module;
    modules.set(table.name, { module, table: { client, name: table.endpoint_name } });
  }
  const output: { reads: unknown[]; errors: string[] } = { reads: [], errors: [] };
  try {
    for (const table of scenario.tables) {
      await client.send(new CreateTableCommand(table.create));
    }
    for (const put of scenario.puts) {
      const target = modules.get(put.table);
      const entity = target?.module.schema.entities[put.entity];
      if (target === undefined || entity === undefined) {
        output.errors.push(`no put for ${put.table}.${put.entity}`);
        continue;
      }
      try {
        await entity.put(target.table, toRecord(entity.fields, put.record) as never);
      } catch (e) {
        output.errors.push(`put ${put.entity} ${JSON.stringify(put.record)}: ${String(e)}`);
      }
    }
    for (const read of scenario.reads) {
      const target = modules.get(read.table);
      const generated = target?.module.schema.reads[read.pattern];
      if (target === undefined || generated === undefined) {
        output.errors.push(`no read for ${read.table}.${read.pattern}`);
        continue;
      }
      try {
        const params = generated.batch ? [read.params] : read.params;
        const items = await collect(generated.read(target.table, params as never));
        const returned = items.map((item) =>
          generated.returns.length > 1
            ? (() => {
                const tagged = item as { entity: string; record: unknown };
                return { entity: tagged.entity, record: toPlain(tagged.record) };
              })()
            : { entity: generated.returns[0], record: toPlain(item) },
        );
        output.reads.push({ pattern: read.pattern, returned });
      } catch (e) {
        output.errors.push(`read ${read.pattern}: ${e instanceof Error ? (e.stack ?? e.message) : String(e)}`);
      }
    }
  } finally {
    for (const table of scenario.tables) {
      try {
        await client.send(new DeleteTableCommand({ TableName: table.endpoint_name }));
      } catch {
        // a table that was never created
      }
    }
  }
  process.stdout.write(JSON.stringify(output) + "\n");
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
