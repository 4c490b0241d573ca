#!/usr/bin/env python3
"""A stand-in for `dyno lsp`, used by check.lua to test how Neovim starts the
server: it answers `initialize` and `shutdown` over stdio and appends what it
receives to the file named by $DYNO_FAKE_LOG (one JSON object per line: first
the arguments, then each message's method)."""

import json
import os
import sys

LOG = os.environ.get("DYNO_FAKE_LOG")


def log(entry):
    if LOG:
        with open(LOG, "a", encoding="utf-8") as f:
            f.write(json.dumps(entry) + "\n")


def read():
    length = None
    while True:
        line = sys.stdin.buffer.readline()
        if not line:
            return None
        line = line.strip()
        if not line:
            break
        name, _, value = line.decode("ascii").partition(":")
        if name.lower() == "content-length":
            length = int(value.strip())
    return json.loads(sys.stdin.buffer.read(length))


def write(message):
    body = json.dumps(message).encode("utf-8")
    sys.stdout.buffer.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    sys.stdout.buffer.flush()


def main():
    log({"argv": sys.argv[1:]})
    if sys.argv[1:] != ["lsp"]:
        sys.exit(2)
    while True:
        message = read()
        if message is None:
            return
        method = message.get("method")
        entry = {"method": method}
        if method == "textDocument/didOpen":
            document = message["params"]["textDocument"]
            entry.update(uri=document["uri"], languageId=document["languageId"])
        log(entry)
        if method == "initialize":
            write({
                "jsonrpc": "2.0",
                "id": message["id"],
                "result": {
                    "capabilities": {"textDocumentSync": 1, "hoverProvider": True},
                    "serverInfo": {"name": "fake-dyno"},
                },
            })
        elif method == "exit":
            return
        elif "id" in message and method is not None:
            write({"jsonrpc": "2.0", "id": message["id"], "result": None})


if __name__ == "__main__":
    main()
