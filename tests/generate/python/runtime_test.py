"""Checks the runtime every generated module carries, through the module of
examples/games.dyno (`example_games.games`): key text and its refusals, the
calculated shard, sparse index keys, filling a request, the order and
laziness of the shard merge, BatchGetItem's chunks and retries, and items
no returned entity writes. Run by tests/generate_python.rs (DYNO_PYTHON)
after generating every example into packages `example_*`.
"""

from __future__ import annotations

from collections.abc import Iterator
from decimal import Decimal
from typing import Any

from example_games import games


def refuses(call: Any) -> bool:
    try:
        call()
    except ValueError:
        return True
    return False


def check_key_text() -> None:
    points = games._SCORE_FIELDS[3]
    assert games._text(points, 42) == "000000042"
    assert refuses(lambda: games._text(points, 1_000_000_000)), "ten digits"
    user = games._SCORE_FIELDS[2]
    assert refuses(lambda: games._text(user, "a#b")), "the delimiter"
    day = games._SCORE_FIELDS[1]
    assert refuses(lambda: games._text(day, "2026-13-01")), "no month 13"
    balance = games._PLAYER_FIELDS[5]
    assert games._text(balance, Decimal("12.50")) == "12.50"
    assert games._text(games._PLAYER_FIELDS[3], True) == "true"


def check_shards() -> None:
    # The FNV-1a test vectors src/check/shard.rs checks.
    assert games._fnv1a("") == 0x811C9DC5
    assert games._fnv1a("a") == 0xE40C292C
    assert games._fnv1a("foobar") == 0xBF9CF968
    record: games.Score = {
        "gameId": "g1",
        "day": "2026-03-14",
        "userId": "u_1",
        "points": 7,
        "expiresAt": 1773446400,
        "bucket": 3,
    }
    keys = games.score_keys(record)[0]
    bucket = games._fnv1a("u_1") % 4
    assert keys["gsi1pk"] == {"S": f"PLAYER#g1#2026-03-14.{bucket}"}, keys
    shard = keys["pk"]["S"].rsplit(".", 1)[1]
    assert shard in [str(n) for n in range(10)], "a random shard is drawn"
    given = games.score_keys({**record, "shard": 7})[0]
    assert given["pk"] == {"S": "SCORE#g1#2026-03-14.7"}
    assert given["sk"] == {"S": "000000007#u_1"}


def check_fill() -> None:
    values = {"gameId": "g", "day": "2026-01-02", "shard": "3", "x": "{day}"}
    request = games._fill(
        games.LEADERBOARD_REQUEST, games._LEADERBOARD_FILLS, values, "Other"
    )
    assert request["TableName"] == "Other"
    assert request["ExpressionAttributeValues"] == {
        ":pk": {"S": "SCORE#g#2026-01-02.3"}
    }
    assert games.LEADERBOARD_REQUEST["TableName"] == "Games", "the constant is kept"


def check_merge() -> None:
    pulled: list[str] = []

    def shard(name: str, keys: list[str]) -> Iterator[dict[str, Any]]:
        for key in keys:
            pulled.append(name)
            yield {"sk": {"S": key}}

    # UTF-8 byte order: U+FFFF sorts before U+1F600 (UTF-16 puts it after).
    merged = games._merge(
        [shard("a", ["\U0001f600", "b"]), shard("b", ["\uffff", "a"])],
        "sk",
        "S",
        False,
    )
    first = next(merged)
    assert first["sk"]["S"] == "\U0001f600", first
    assert sorted(pulled) == ["a", "b"], "lazy: one item of each shard"
    rest = [item["sk"]["S"] for item in merged]
    assert rest == ["\uffff", "b", "a"], rest

    def numbers(keys: list[str]) -> Iterator[dict[str, Any]]:
        for key in keys:
            yield {"n": {"N": key}}

    ascending = games._merge([numbers(["9", "100"]), numbers(["10"])], "n", "N", True)
    assert [i["n"]["N"] for i in ascending] == ["9", "10", "100"]


class FakeClient:
    """A BatchGetItem that leaves one key unprocessed the first time."""

    def __init__(self) -> None:
        self.requests: list[list[Any]] = []

    def batch_get_item(self, RequestItems: dict[str, Any]) -> dict[str, Any]:
        ((table, entry),) = RequestItems.items()
        keys = list(entry["Keys"])
        self.requests.append(keys)
        held = keys[-1:] if len(self.requests) == 1 else []
        done = keys[:-1] if held else keys
        items = [{**k, "userId": {"S": "x"}} for k in done]
        unprocessed = {table: {"Keys": held}} if held else {}
        return {"Responses": {table: items}, "UnprocessedKeys": unprocessed}


def check_batch_get() -> None:
    client = FakeClient()
    wanted = [{"userId": f"u{n}"} for n in range(150)] + [{"userId": "u0"}]
    items = list(
        games._batch_get(
            client,  # type: ignore[arg-type]
            games.PLAYERS_REQUEST,
            games._PLAYERS_FILLS,
            wanted,
            "T",
        )
    )
    assert len(items) == 150, "duplicates asked once"
    assert [len(r) for r in client.requests] == [100, 1, 50], client.requests


def check_identify() -> None:
    match: dict[str, Any] = {
        "pk": {"S": "PLAYER#u1"},
        "sk": {"S": "MATCH#2026-01-01T00:00:00Z#x"},
    }
    entities = (("Player", games._PLAYER_SHAPES), ("Match", games._MATCH_SHAPES))
    assert refuses(lambda: games._which(match, entities)), "a bad ULID is no Match"
    profile: dict[str, Any] = {"pk": {"S": "PLAYER#u1"}, "sk": {"S": "PROFILE"}}
    assert games._which(profile, entities) == "Player"


def main() -> None:
    check_key_text()
    check_shards()
    check_fill()
    check_merge()
    check_batch_get()
    check_identify()
    print("runtime checks passed")


if __name__ == "__main__":
    main()
