// The helpers a generated TypeScript module carries, in chunks: each starts
// with a line `//@ name: dependency, ...` (the chunks it calls) and only the
// chunks a module uses are copied into it, in this file's order, so a
// strict `noUnusedLocals` build stays clean. Imports are the module's.

//@ field
/** How a record field is stored: the `.dyno` type's family, or an enum's words. */
export type FieldType =
  | "string"
  | "int"
  | "decimal"
  | "bool"
  | "binary"
  | "list"
  | "map"
  | readonly string[];

/** One attribute of an entity: its name, type and whether it may be absent. */
export type Field = readonly [name: string, type: FieldType, optional: boolean];

//@ entity: field
/** What decoding needs of an entity: its fields, and each item shape's keys as regular expressions. */
interface _Entity {
  readonly name: string;
  readonly fields: readonly Field[];
  /** Per item shape: each key attribute, its language, and whether it is one of the table's own keys. */
  readonly shapes: readonly (readonly (readonly [
    attr: string,
    language: RegExp,
    base: boolean,
  ])[])[];
}

//@ key
/** A value's key text, refused unless it is in its type's language. */
function _key(name: string, text: string, language: RegExp): string {
  if (!language.test(text)) {
    throw new Error(
      `${name}: ${JSON.stringify(text)} cannot be written in a key (it must match ${language})`,
    );
  }
  return text;
}

//@ pad
/** An `int(pad N)` as key text: zero-padded to N digits. */
function _pad(value: number, digits: number): string {
  return String(value).padStart(digits, "0");
}

//@ random
/** A write shard drawn at random: 0 to count - 1. */
function _random(count: number): number {
  return Math.floor(Math.random() * count);
}

//@ shard
/** `shard(N, of attr)`: FNV-1a (32 bit) over the UTF-8 bytes of the source's key text, modulo N. */
function _shardOf(text: string, count: number): number {
  let hash = 0x811c9dc5;
  const byte = (b: number): void => {
    hash = Math.imul((hash ^ b) >>> 0, 0x01000193) >>> 0;
  };
  for (const char of text) {
    const c = char.codePointAt(0) ?? 0;
    if (c < 0x80) {
      byte(c);
    } else if (c < 0x800) {
      byte(0xc0 | (c >> 6));
      byte(0x80 | (c & 0x3f));
    } else if (c < 0x10000) {
      byte(0xe0 | (c >> 12));
      byte(0x80 | ((c >> 6) & 0x3f));
      byte(0x80 | (c & 0x3f));
    } else {
      byte(0xf0 | (c >> 18));
      byte(0x80 | ((c >> 12) & 0x3f));
      byte(0x80 | ((c >> 6) & 0x3f));
      byte(0x80 | (c & 0x3f));
    }
  }
  return hash % count;
}

//@ calculated
/** A calculated shard: the caller's value, if any, must be the computed one. */
function _calculated(
  name: string,
  given: number | undefined,
  computed: number,
): number {
  if (given !== undefined && given !== computed) {
    throw new Error(
      `${name}: ${given} is not the shard its source computes (${computed})`,
    );
  }
  return computed;
}

//@ number
/** Number text in its shortest form, as DynamoDB stores it: `007` → `7`, `1.50` → `1.5`. */
function _number(text: string): string {
  const match = /^([+-]?)([0-9]*)(?:\.([0-9]*))?$/.exec(text);
  if (match === null || (match[2] === "" && (match[3] ?? "") === "")) {
    return text;
  }
  const int = (match[2] ?? "").replace(/^0+/, "") || "0";
  const frac = (match[3] ?? "").replace(/0+$/, "");
  if (int === "0" && frac === "") {
    return "0";
  }
  const sign = match[1] === "-" ? "-" : "";
  return frac === "" ? `${sign}${int}` : `${sign}${int}.${frac}`;
}

//@ utf8
/** A binary key's bytes: the UTF-8 of its text. */
function _utf8(text: string): Uint8Array {
  return new TextEncoder().encode(text);
}

//@ plain
/** A plain value (a list's or map's element) as an AttributeValue. */
function _toAttr(value: unknown): AttributeValue {
  if (value === null || value === undefined) {
    return { NULL: true };
  }
  if (typeof value === "string") {
    return { S: value };
  }
  if (typeof value === "number" || typeof value === "bigint") {
    return { N: String(value) };
  }
  if (typeof value === "boolean") {
    return { BOOL: value };
  }
  if (value instanceof Uint8Array) {
    return { B: value };
  }
  if (Array.isArray(value)) {
    return { L: value.map(_toAttr) };
  }
  if (typeof value === "object") {
    const fields: Record<string, AttributeValue> = {};
    for (const [name, field] of Object.entries(value)) {
      fields[name] = _toAttr(field);
    }
    return { M: fields };
  }
  throw new Error(`cannot store a ${typeof value} in a list or map`);
}

/** An AttributeValue as a plain value: numbers as numbers, sets as arrays. */
function _fromAttr(value: AttributeValue): unknown {
  if (value.S !== undefined) return value.S;
  if (value.N !== undefined) return Number(value.N);
  if (value.BOOL !== undefined) return value.BOOL;
  if (value.B !== undefined) return value.B;
  if (value.NULL !== undefined) return null;
  if (value.L !== undefined) return value.L.map(_fromAttr);
  if (value.M !== undefined) {
    const fields: Record<string, unknown> = {};
    for (const [name, field] of Object.entries(value.M)) {
      fields[name] = _fromAttr(field);
    }
    return fields;
  }
  if (value.SS !== undefined) return [...value.SS];
  if (value.NS !== undefined) return value.NS.map(Number);
  if (value.BS !== undefined) return [...value.BS];
  return undefined;
}

//@ attributes: field, plain
/** The item's attributes after its keys: each field the record has, under its own name, unless a key of that name holds it. */
function _attributes(
  record: object,
  fields: readonly Field[],
  keys: Item,
): Item {
  const values = record as Record<string, unknown>;
  const item: Item = { ...keys };
  for (const [name, type] of fields) {
    const value = values[name];
    if (value === undefined || name in keys) {
      continue;
    }
    if (typeof type !== "string" || type === "string") {
      item[name] = { S: String(value) };
    } else if (type === "int" || type === "decimal") {
      item[name] = { N: String(value) };
    } else if (type === "bool") {
      item[name] = { BOOL: Boolean(value) };
    } else if (type === "binary") {
      item[name] = { B: value as Uint8Array };
    } else {
      item[name] = _toAttr(value);
    }
  }
  return item;
}

//@ decode: entity, plain
/** An item as a record of `entity`: every field it has; a required one missing is an error unless the read's index projects only some. */
function _decode(
  item: Item,
  entity: _Entity,
  whole: boolean,
): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const [name, type, optional] of entity.fields) {
    const value = item[name];
    if (value === undefined) {
      if (whole && !optional) {
        throw new Error(`${entity.name}: the item has no ${name}`);
      }
      continue;
    }
    const text = value.S ?? value.N;
    const bad = (): Error =>
      new Error(
        `${entity.name}: ${name} is ${JSON.stringify(value)}, not a ${String(type)}`,
      );
    if (typeof type !== "string") {
      if (text === undefined || !type.includes(text)) throw bad();
      record[name] = text;
    } else if (type === "string" || type === "decimal") {
      if (text === undefined) throw bad();
      record[name] = text;
    } else if (type === "int") {
      if (text === undefined || Number.isNaN(Number(text))) throw bad();
      record[name] = Number(text);
    } else if (type === "bool") {
      const bool =
        value.BOOL ??
        (text === "true" ? true : text === "false" ? false : undefined);
      if (bool === undefined) throw bad();
      record[name] = bool;
    } else if (type === "binary") {
      if (value.B === undefined) throw bad();
      record[name] = value.B;
    } else if (type === "list") {
      if (value.L === undefined) throw bad();
      record[name] = _fromAttr(value);
    } else {
      if (value.M === undefined) throw bad();
      record[name] = _fromAttr(value);
    }
  }
  return record;
}

//@ identify: entity
/** The first of `entities` whose key templates accept the item's keys, as `dyno size` tells: the table's own keys present and each key the shape writes in its language. */
function _identify(item: Item, entities: readonly _Entity[]): _Entity {
  for (const entity of entities) {
    for (const shape of entity.shapes) {
      const fits = shape.every(([attr, language, base]) => {
        const value = item[attr];
        if (value === undefined) {
          return !base;
        }
        const text = value.S ?? value.N;
        return text !== undefined && language.test(text);
      });
      if (fits) {
        return entity;
      }
    }
  }
  const names = entities.map((e) => e.name).join(", ");
  throw new Error(
    `an item no entity of ${names} writes: ${JSON.stringify(item)}`,
  );
}

//@ record: decode, identify
/** An item as the record of the first of `entities` whose keys it has. */
function _record<T>(
  item: Item,
  entities: readonly _Entity[],
  whole: boolean,
): T {
  return _decode(item, _identify(item, entities), whole) as unknown as T;
}

//@ tagged: decode, identify
/** An item as the record of the entity whose keys it has, tagged with the entity's name. */
function _tagged<T>(
  item: Item,
  entities: readonly _Entity[],
  whole: boolean,
): T {
  const entity = _identify(item, entities);
  const record = _decode(item, entity, whole);
  return { entity: entity.name, record } as unknown as T;
}

//@ fill
/** A copy of a request with the caller's values at their paths and the table's name on the endpoint. */
function _fill<T>(
  template: object,
  tableName: string,
  fills: readonly (readonly [readonly string[], unknown])[],
): T {
  const request = JSON.parse(JSON.stringify(template)) as Record<
    string,
    unknown
  >;
  for (const [path, value] of fills) {
    let at = request;
    for (const step of path.slice(0, -1)) {
      at = at[step] as Record<string, unknown>;
    }
    at[path[path.length - 1] ?? ""] = value;
  }
  const items = request.RequestItems as Record<string, unknown> | undefined;
  if (items !== undefined) {
    request.RequestItems = Object.fromEntries(
      Object.values(items).map((v) => [tableName, v]),
    );
  } else {
    request.TableName = tableName;
  }
  return request as T;
}

//@ pages
/** A read's items page by page, following `LastEvaluatedKey`: one request per page. */
async function* _pages(
  send: (
    start: Item | undefined,
  ) => Promise<{ Items?: Item[]; LastEvaluatedKey?: Item }>,
): AsyncGenerator<Item> {
  let start: Item | undefined;
  do {
    const page = await send(start);
    yield* page.Items ?? [];
    start = page.LastEvaluatedKey;
  } while (start !== undefined);
}

//@ query: pages
/** A Query's items, page by page. */
function _query(
  client: DynamoDBClient,
  request: QueryCommandInput,
): AsyncGenerator<Item> {
  return _pages((start) =>
    client.send(new QueryCommand({ ...request, ExclusiveStartKey: start })),
  );
}

//@ scan: pages
/** A Scan's (or one segment's) items, page by page. */
function _scan(
  client: DynamoDBClient,
  request: ScanCommandInput,
): AsyncGenerator<Item> {
  return _pages((start) =>
    client.send(new ScanCommand({ ...request, ExclusiveStartKey: start })),
  );
}

//@ interleave
/** The items of several streams read at once (a parallel Scan's segments), each as it arrives. */
async function* _interleave(
  streams: readonly AsyncGenerator<Item>[],
): AsyncGenerator<Item> {
  const next = (i: number): Promise<readonly [number, IteratorResult<Item>]> =>
    (streams[i] as AsyncGenerator<Item>)
      .next()
      .then((result) => [i, result] as const);
  const pending = new Map(streams.map((_, i) => [i, next(i)] as const));
  while (pending.size > 0) {
    const [i, result] = await Promise.race(pending.values());
    if (result.done === true) {
      pending.delete(i);
    } else {
      pending.set(i, next(i));
      yield result.value;
    }
  }
}

//@ merge
/** Two Numbers by value, exactly: DynamoDB keeps 38 digits, a JS number 15 to 17. */
function _numberOrder(x: string, y: string): number {
  const parse = (text: string) => {
    const m = /^([+-]?)([0-9]*)(?:\.([0-9]*))?$/.exec(text);
    if (m === null) return undefined;
    const int = (m[2] ?? "").replace(/^0+/, "");
    const frac = (m[3] ?? "").replace(/0+$/, "");
    return { negative: m[1] === "-" && (int !== "" || frac !== ""), int, frac };
  };
  const a = parse(x);
  const b = parse(y);
  // Exponent forms: DynamoDB writes none, but do not fail on one.
  if (a === undefined || b === undefined) {
    return Math.sign(Number(x) - Number(y));
  }
  if (a.negative !== b.negative) return a.negative ? -1 : 1;
  const sign = a.negative ? -1 : 1;
  if (a.int.length !== b.int.length) {
    return sign * Math.sign(a.int.length - b.int.length);
  }
  if (a.int !== b.int) return sign * (a.int < b.int ? -1 : 1);
  if (a.frac !== b.frac) return sign * (a.frac < b.frac ? -1 : 1);
  return 0;
}

/** DynamoDB's order of two key values: strings by UTF-8 bytes (code points), numbers by value, binary by bytes. */
function _order(
  a: AttributeValue | undefined,
  b: AttributeValue | undefined,
): number {
  if (a?.S !== undefined && b?.S !== undefined) {
    const x = a.S;
    const y = b.S;
    for (let i = 0; i < x.length && i < y.length; i++) {
      const cx = x.charCodeAt(i);
      const cy = y.charCodeAt(i);
      if (cx !== cy) {
        // UTF-16 puts U+E000..U+FFFF after the surrogates; code points, and UTF-8, do not.
        const rank = (c: number): number =>
          c >= 0xe000 ? c - 0x800 : c >= 0xd800 ? c + 0x2000 : c;
        return rank(cx) - rank(cy);
      }
    }
    return x.length - y.length;
  }
  if (a?.N !== undefined && b?.N !== undefined) {
    return _numberOrder(a.N, b.N);
  }
  if (a?.B !== undefined && b?.B !== undefined) {
    for (let i = 0; i < a.B.length && i < b.B.length; i++) {
      if (a.B[i] !== b.B[i]) {
        return (a.B[i] ?? 0) - (b.B[i] ?? 0);
      }
    }
    return a.B.length - b.B.length;
  }
  return 0;
}

/** Sorted streams (one per write shard) merged by the sort key, lazily: the first items come after one page of each. */
async function* _merge(
  streams: readonly AsyncGenerator<Item>[],
  sortKey: string,
  forward: boolean,
): AsyncGenerator<Item> {
  const heads: (Item | undefined)[] = [];
  for (const result of await Promise.all(streams.map((s) => s.next()))) {
    heads.push(result.done === true ? undefined : result.value);
  }
  for (;;) {
    let best = -1;
    let bestItem: Item | undefined;
    for (let i = 0; i < heads.length; i++) {
      const head = heads[i];
      if (head === undefined) {
        continue;
      }
      if (
        bestItem === undefined ||
        (forward ? 1 : -1) * _order(head[sortKey], bestItem[sortKey]) < 0
      ) {
        best = i;
        bestItem = head;
      }
    }
    if (bestItem === undefined) {
      return;
    }
    yield bestItem;
    const result = await (streams[best] as AsyncGenerator<Item>).next();
    heads[best] = result.done === true ? undefined : result.value;
  }
}

//@ first
/** The first item of a read, or none; the rest is not read. */
async function _first(items: AsyncGenerator<Item>): Promise<Item | undefined> {
  for await (const item of items) {
    return item;
  }
  return undefined;
}

//@ batch
/** BatchGetItem of single-key requests: up to 100 keys a request, each key once, `UnprocessedKeys` retried with backoff. */
async function _batchGet(
  client: DynamoDBClient,
  requests: readonly BatchGetItemCommandInput[],
): Promise<Item[]> {
  const first = requests[0]?.RequestItems;
  if (first === undefined) {
    return [];
  }
  const entry = Object.entries(first)[0];
  if (entry === undefined) {
    return [];
  }
  const [tableName, shape] = entry;
  const seen = new Set<string>();
  const keys: Item[] = [];
  for (const request of requests) {
    for (const key of request.RequestItems?.[tableName]?.Keys ?? []) {
      const identity = JSON.stringify(key);
      if (!seen.has(identity)) {
        seen.add(identity);
        keys.push(key);
      }
    }
  }
  const items: Item[] = [];
  for (let at = 0; at < keys.length; at += 100) {
    let pending = keys.slice(at, at + 100);
    for (let attempt = 0; pending.length > 0; attempt++) {
      if (attempt > 0) {
        if (attempt > 10) {
          throw new Error(
            `BatchGetItem: ${pending.length} keys still unprocessed after 10 retries`,
          );
        }
        await new Promise((resolve) =>
          setTimeout(resolve, Math.min(50 * 2 ** attempt, 5000)),
        );
      }
      const out = await client.send(
        new BatchGetItemCommand({
          RequestItems: { [tableName]: { ...shape, Keys: pending } },
        }),
      );
      items.push(...(out.Responses?.[tableName] ?? []));
      pending = out.UnprocessedKeys?.[tableName]?.Keys ?? [];
    }
  }
  return items;
}
