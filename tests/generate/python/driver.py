"""Runs the end-to-end scenario (tests/common/scenario.rs) through the
modules `dyno generate python` wrote: creates the tables, writes every
record with the generated put, calls every generated read and prints what
each returned, then deletes the tables.

Usage: driver.py SCENARIO.json MODULES_DIR; the endpoint is
DYNO_TEST_ENDPOINT. The scenario carries, beside tests/common/scenario.rs's
fields, each put's and read's module and function and the kind of each
value (tests/generate_python.rs adds them).
"""

from __future__ import annotations

import base64
import importlib
import json
import os
import sys
import traceback
from collections.abc import Mapping
from decimal import Decimal
from typing import Any

import boto3


def typed(value: Any, kind: str) -> Any:
    """A scenario value (docs/generate.md's JSON typing) as Python's."""
    if kind == "decimal":
        return Decimal(str(value))
    if kind == "bytes":
        return base64.b64decode(value)
    if kind == "int":
        return int(value)
    return value


def plain(value: Any) -> Any:
    """A returned value back in the scenario's JSON typing."""
    if isinstance(value, bool) or value is None:
        return value
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, (bytes, bytearray)):
        return base64.b64encode(bytes(value)).decode()
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set)):
        return [plain(v) for v in value]
    return value


def record_json(record: Mapping[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for name, value in record.items():
        # A top-level decimal keeps its exact text.
        out[name] = str(value) if isinstance(value, Decimal) else plain(value)
    return out


def rows_of(result: Any, returns: list[str]) -> list[tuple[str, Mapping[str, Any]]]:
    """What a generated read returned, as (entity, record) pairs: one record
    or none, a list, or an iterator; tagged tuples when it returns several
    entities."""
    if result is None:
        items: list[Any] = []
    elif isinstance(result, (dict, tuple)):
        items = [result]
    else:
        items = list(result)
    if len(returns) == 1:
        return [(returns[0], item) for item in items]
    return [(entity, record) for entity, record in items]


def main() -> int:
    with open(sys.argv[1], encoding="utf-8") as f:
        scenario: dict[str, Any] = json.load(f, parse_float=Decimal)
    sys.path.insert(0, sys.argv[2])
    client = boto3.client(
        "dynamodb",
        endpoint_url=os.environ["DYNO_TEST_ENDPOINT"],
        region_name="us-east-1",
        aws_access_key_id="x",
        aws_secret_access_key="x",
    )
    names = {t["name"]: t["endpoint_name"] for t in scenario["tables"]}
    for table in scenario["tables"]:
        client.create_table(**table["create"])
    results: list[dict[str, Any]] = []
    try:
        for put in scenario["puts"]:
            module = importlib.import_module(put["module"])
            kinds: dict[str, str] = put["kinds"]
            record = {k: typed(v, kinds[k]) for k, v in put["record"].items()}
            getattr(module, put["function"])(
                client, record, table_name=names[put["table"]]
            )
        for read in scenario["reads"]:
            module = importlib.import_module(read["module"])
            function = getattr(module, read["function"])
            kinds = read["kinds"]
            params = {k: typed(v, kinds[k]) for k, v in read["params"].items()}
            table_name = names[read["table"]]
            try:
                if read["batch"]:
                    result = function(client, [params], table_name=table_name)
                else:
                    arguments = {read["arguments"][k]: v for k, v in params.items()}
                    result = function(client, **arguments, table_name=table_name)
                returned = [
                    {"entity": entity, "record": record_json(record)}
                    for entity, record in rows_of(result, read["returns"])
                ]
                results.append({"pattern": read["pattern"], "returned": returned})
            except Exception:  # noqa: BLE001 - reported, and the Rust test fails
                results.append(
                    {"pattern": read["pattern"], "error": traceback.format_exc()}
                )
    finally:
        for table in scenario["tables"]:
            client.delete_table(TableName=table["endpoint_name"])
    print(json.dumps({"reads": results}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
