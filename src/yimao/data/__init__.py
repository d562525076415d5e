"""Package data: the text of volume 6, the star catalogue (TOML source and compiled JSON), the JSON Schema."""

import os

_HERE = os.path.dirname(os.path.abspath(__file__))


def read_bytes(name: str) -> bytes:
    # plain file access: importlib.resources costs a command some 15 ms of imports
    with open(os.path.join(_HERE, name), "rb") as f:
        return f.read()


def read_text(name: str) -> str:
    return read_bytes(name).decode("utf-8")
