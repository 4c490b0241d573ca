class _Field(NamedTuple):
    """An attribute or a read's parameter: how its value is typed and stored,
    and the language its text must be in when it goes into a key."""

    name: str
    kind: str
    optional: bool
    pattern: str | None
    pad: int | None
    shard_count: int | None
    shard_of: str | None


class _Ref(NamedTuple):
    """A field's key text inside a key template."""

    field: str


class _Key(NamedTuple):
    """One key attribute of an item shape: its template's parts and the
    regular expression of the values the template writes."""

    attr: str
    ty: str
    base: bool
    parts: tuple[str | _Ref, ...]
    matcher: str


_Item = Mapping[str, "AttributeValueTypeDef"]
_Shape = tuple[_Key, ...]
_Fields = tuple[_Field, ...]
_Paths = tuple[tuple[str, ...], ...]


def _text(field: _Field, value: object) -> str:
    """A value as key text, refused unless it is in its type's language."""
    if isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, int):
        text = f"{value:0{field.pad}d}" if field.pad else str(value)
    elif isinstance(value, Decimal):
        text = format(value, "f")
    elif isinstance(value, str):
        text = value
    else:
        raise TypeError(f"{field.name}: {type(value).__name__} cannot be key text")
    if field.pattern is not None and re.fullmatch(field.pattern, text) is None:
        raise ValueError(
            f"{field.name}: {text!r} is not a valid key value ({field.pattern})"
        )
    return text


def _texts(fields: tuple[_Field, ...], values: tuple[object, ...]) -> dict[str, str]:
    return {field.name: _text(field, value) for field, value in zip(fields, values)}


def _fnv1a(text: str) -> int:
    """FNV-1a (32 bit) over the UTF-8 bytes: the calculated write shard."""
    h = 0x811C9DC5
    for byte in text.encode():
        h = ((h ^ byte) * 0x01000193) & 0xFFFFFFFF
    return h


def _complete(
    fields: tuple[_Field, ...], record: Mapping[str, object]
) -> dict[str, object]:
    """The record with its write shards: a random one drawn unless given, a
    calculated one computed from its source."""
    out = dict(record)
    by_name = {field.name: field for field in fields}
    for field in fields:
        if field.shard_count is None:
            continue
        if field.shard_of is not None:
            source = by_name[field.shard_of]
            if source.name not in out:
                raise ValueError(f"{field.name}: needs {source.name}")
            text = _text(source, out[source.name])
            out[field.name] = _fnv1a(text) % field.shard_count
        elif field.name not in out:
            out[field.name] = random.randrange(field.shard_count)
    return out


def _keys(
    fields: tuple[_Field, ...], shapes: tuple[_Shape, ...], record: Mapping[str, object]
) -> list[dict[str, AttributeValueTypeDef]]:
    by_name = {field.name: field for field in fields}
    out: list[dict[str, AttributeValueTypeDef]] = []
    for shape in shapes:
        keys: dict[str, AttributeValueTypeDef] = {}
        for key in shape:
            text = ""
            for part in key.parts:
                if isinstance(part, str):
                    text += part
                elif part.field in record:
                    text += _text(by_name[part.field], record[part.field])
                elif key.base:
                    raise ValueError(f"{key.attr}: needs {part.field}")
                else:
                    # A sparse index: the item stays out of it.
                    break
            else:
                if key.ty == "N":
                    keys[key.attr] = {"N": text}
                elif key.ty == "B":
                    keys[key.attr] = {"B": text.encode()}
                else:
                    keys[key.attr] = {"S": text}
        out.append(keys)
    return out


def _encode(field: _Field, value: object) -> AttributeValueTypeDef:
    if field.kind == "int" or field.kind == "decimal":
        return {"N": _text(field._replace(pattern=None, pad=None), value)}
    if field.kind == "bool" and isinstance(value, bool):
        return {"BOOL": value}
    if field.kind == "bytes" and isinstance(value, bytes):
        return {"B": value}
    if field.kind in ("list", "map"):
        return _value(value)
    if field.kind == "str" and isinstance(value, str):
        return {"S": value}
    raise TypeError(f"{field.name}: {type(value).__name__} is not a {field.kind}")


def _value(value: object) -> AttributeValueTypeDef:
    """A plain Python value (a list or map's element) as an AttributeValue."""
    if value is None:
        return {"NULL": True}
    if isinstance(value, bool):
        return {"BOOL": value}
    if isinstance(value, (int, Decimal)):
        return {"N": str(value)}
    if isinstance(value, float):
        return {"N": repr(value)}
    if isinstance(value, str):
        return {"S": value}
    if isinstance(value, (bytes, bytearray)):
        return {"B": bytes(value)}
    if isinstance(value, Mapping):
        return {"M": {str(k): _value(v) for k, v in value.items()}}
    if isinstance(value, (list, tuple)):
        return {"L": [_value(v) for v in value]}
    raise TypeError(f"{type(value).__name__} cannot be stored")


def _plain(value: Mapping[str, Any]) -> Any:
    """An AttributeValue of a list or map as a plain Python value."""
    if "S" in value:
        return value["S"]
    if "N" in value:
        n = str(value["N"])
        return int(n) if re.fullmatch(r"-?[0-9]+", n) else Decimal(n)
    if "BOOL" in value:
        return bool(value["BOOL"])
    if "B" in value:
        return bytes(value["B"])
    if "NULL" in value:
        return None
    if "L" in value:
        return [_plain(v) for v in value["L"]]
    if "M" in value:
        return {k: _plain(v) for k, v in value["M"].items()}
    if "SS" in value:
        return set(value["SS"])
    if "NS" in value:
        return {Decimal(n) for n in value["NS"]}
    if "BS" in value:
        return {bytes(b) for b in value["BS"]}
    raise ValueError(f"unknown AttributeValue {value!r}")


def _put(
    client: DynamoDBClient,
    table_name: str,
    fields: tuple[_Field, ...],
    shapes: tuple[_Shape, ...],
    record: Mapping[str, object],
) -> None:
    full = _complete(fields, record)
    for keys in _keys(fields, shapes, full):
        item: dict[str, AttributeValueTypeDef] = dict(keys)
        for field in fields:
            if field.name in full and field.name not in item:
                item[field.name] = _encode(field, full[field.name])
            elif field.name not in full and not field.optional:
                raise ValueError(f"{field.name}: missing")
        client.put_item(TableName=table_name, Item=item)


def _decode(fields: tuple[_Field, ...], item: _Item, partial: bool) -> dict[str, Any]:
    """An item's attributes as a record; `partial` for an index that
    projects only some of them."""
    out: dict[str, Any] = {}
    for field in fields:
        value = item.get(field.name)
        if value is None:
            if field.optional or partial:
                continue
            raise ValueError(f"{field.name}: missing from the item")
        if field.kind == "str":
            out[field.name] = value["S"]
        elif field.kind == "int":
            out[field.name] = int(value["N"])
        elif field.kind == "decimal":
            out[field.name] = Decimal(value["N"])
        elif field.kind == "bool":
            out[field.name] = bool(value["BOOL"])
        elif field.kind == "bytes":
            out[field.name] = bytes(value["B"])
        else:
            out[field.name] = _plain(value)
    return out


def _fits(item: _Item, shapes: tuple[_Shape, ...]) -> bool:
    """Whether one of the entity's item shapes could have written the
    item's keys: its base keys present, every key it has in the template's
    language (as `dyno size` identifies items)."""
    for shape in shapes:
        fits = True
        for key in shape:
            value = item.get(key.attr)
            if value is None:
                fits = fits and not key.base
                continue
            text = value.get("N") if key.ty == "N" else value.get("S")
            if text is None or re.fullmatch(key.matcher, text) is None:
                fits = False
        if fits:
            return True
    return False


def _which(item: _Item, entities: tuple[tuple[str, tuple[_Shape, ...]], ...]) -> str:
    for name, shapes in entities:
        if _fits(item, shapes):
            return name
    keys = {
        k: v
        for k, v in item.items()
        if any(k == key.attr for _, s in entities for shape in s for key in shape)
    }
    raise ValueError(f"an item no returned entity writes: {keys!r}")


def _fill(
    template: _T,
    paths: tuple[tuple[str, ...], ...],
    values: Mapping[str, str],
    table_name: str,
) -> _T:
    """The request with the caller's values in place of `{name}`."""
    request = copy.deepcopy(template)
    for path in paths:
        node: Any = request
        for step in path[:-1]:
            node = node[int(step)] if isinstance(node, list) else node[step]
        last = int(path[-1]) if isinstance(node, list) else path[-1]
        node[last] = re.sub(
            r"\{([^{}]*)\}", lambda m: values.get(m[1], m[0]), node[last]
        )
    if isinstance(request, dict) and "TableName" in request:
        request["TableName"] = table_name
    return request


def _pages(
    send: Callable[..., Any], request: Mapping[str, Any]
) -> Iterator[dict[str, AttributeValueTypeDef]]:
    """Every item of a Query or Scan, a page per request (`Limit` is the
    page size), following `LastEvaluatedKey`."""
    while True:
        page = send(**request)
        yield from page["Items"]
        last = page.get("LastEvaluatedKey")
        if not last:
            return
        request = {**request, "ExclusiveStartKey": last}


def _query(
    client: DynamoDBClient, request: QueryInputTypeDef
) -> Iterator[dict[str, AttributeValueTypeDef]]:
    return _pages(client.query, request)


def _scan(
    client: DynamoDBClient, request: ScanInputTypeDef
) -> Iterator[dict[str, AttributeValueTypeDef]]:
    return _pages(client.scan, request)


def _segments(
    client: DynamoDBClient, request: Mapping[str, Any]
) -> Iterator[dict[str, AttributeValueTypeDef]]:
    """A parallel Scan: each segment's items, segment after segment."""
    total = int(request["TotalSegments"])
    for segment in range(total):
        yield from _scan(
            client, cast("ScanInputTypeDef", {**request, "Segment": segment})
        )


def _get(
    client: DynamoDBClient, request: GetItemInputTypeDef
) -> list[dict[str, AttributeValueTypeDef]]:
    """The item of a GetItem, or none."""
    item = client.get_item(**request).get("Item")
    return [] if item is None else [item]


def _shards(
    client: DynamoDBClient,
    template: QueryInputTypeDef,
    paths: tuple[tuple[str, ...], ...],
    values: Mapping[str, str],
    table_name: str,
    attr: str,
    count: int,
) -> list[Iterator[dict[str, AttributeValueTypeDef]]]:
    """One Query per write shard, each paging on its own."""
    return [
        _query(client, _fill(template, paths, {**values, attr: str(shard)}, table_name))
        for shard in range(count)
    ]


def _merge(
    shards: list[Iterator[dict[str, AttributeValueTypeDef]]],
    attr: str | None,
    ty: str,
    forward: bool,
) -> Iterator[dict[str, AttributeValueTypeDef]]:
    """Per-shard reads merged lazily by the sort key, in DynamoDB's order:
    strings by their UTF-8 bytes, numbers by value, binary by bytes."""
    if attr is None:
        return (item for shard in shards for item in shard)
    key = attr

    def order(item: dict[str, AttributeValueTypeDef]) -> Any:
        value = item[key]
        if ty == "N":
            return Decimal(value["N"])
        if ty == "B":
            return bytes(value["B"])
        return value["S"].encode()

    return heapq.merge(*shards, key=order, reverse=not forward)


def _batch_get(
    client: DynamoDBClient,
    template: BatchGetItemInputTypeDef,
    paths: tuple[tuple[str, ...], ...],
    wanted: list[dict[str, str]],
    table_name: str,
) -> Iterator[dict[str, AttributeValueTypeDef]]:
    """BatchGetItem of the keys, up to 100 a request, duplicates asked once;
    `UnprocessedKeys` retried with backoff."""
    entry: Any = {}
    keys: list[Any] = []
    for values in wanted:
        filled: Any = _fill(template, paths, values, table_name)
        entry = next(iter(filled["RequestItems"].values()))
        if entry["Keys"][0] not in keys:
            keys.append(entry["Keys"][0])
    for start in range(0, len(keys), 100):
        pending = keys[start : start + 100]
        attempt = 0
        while pending:
            asking = cast("KeysAndAttributesTypeDef", {**entry, "Keys": pending})
            page = client.batch_get_item(RequestItems={table_name: asking})
            yield from page["Responses"].get(table_name, [])
            left = page.get("UnprocessedKeys", {}).get(table_name)
            pending = list(left["Keys"]) if left else []
            if pending:
                attempt += 1
                if attempt > 10:
                    raise RuntimeError(f"BatchGetItem: {len(pending)} keys unprocessed")
                time.sleep(min(0.05 * 2**attempt, 2.0))
