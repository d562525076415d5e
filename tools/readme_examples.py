"""Regenerate the example outputs of README.md from real runs, so that they say what yimao prints.

A generated example is a fenced block right after a marker line:

    <!-- example -->                          the whole output
    <!-- example lines=22 -->                 its first 22 lines, then a line "…"
    <!-- example cut=100 -->                  a line longer than 100 characters ends in "…"
    <!-- example mask='\\d+(?= charts/s)' -->  what differs from run to run (a rate) shown as "…"

The block's first line is the command as a user types it, `$ yimao …` (a shell line: a pipe
into `yimao batch` too). It runs under `sh`, `yimao` being this interpreter's `python -m yimao`,
at a fixed width (COLUMNS=100), in a fixed zone (Asia/Shanghai), with no terminal; its stdout,
then its stderr, follow the command in the block.

    python tools/readme_examples.py          # rewrite README.md
    python tools/readme_examples.py --check  # exit 1 naming the examples that differ
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

README = Path(__file__).resolve().parent.parent / "README.md"

ENV = {"TZ": "Asia/Shanghai", "COLUMNS": "100", "LC_ALL": "C.UTF-8", "PYTHONIOENCODING": "utf-8"}

# the marker, the fence, the command line, the output up to the closing fence
BLOCK = re.compile(r"^<!-- example(?P<options>[^\n]*?) -->\n```\n\$ (?P<command>[^\n]*)\n(?P<output>.*?)^```$", re.M | re.S)


def run(command: str) -> str:
    """What `command` prints, stdout then stderr, as text."""
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "NO_COLOR", "YIMAO_DEBUG")}
    env.update(ENV, YIMAO_PYTHON=sys.executable)
    r = subprocess.run(
        ["sh", "-c", f'yimao() {{ "$YIMAO_PYTHON" -m yimao "$@"; }}\n{command}'],
        capture_output=True,
        env=env,
        timeout=120,
        stdin=subprocess.DEVNULL,
    )
    return r.stdout.decode("utf-8") + r.stderr.decode("utf-8")


def shape(output: str, options: dict[str, str]) -> str:
    """The output as the README shows it: masked, cut, and its first lines."""
    if "mask" in options:
        output = re.sub(options["mask"], "…", output)
    lines = [line.rstrip() for line in output.splitlines()]
    if "cut" in options:
        width = int(options["cut"])
        lines = [line if len(line) <= width else line[: width - 1] + "…" for line in lines]
    if "lines" in options and len(lines) > int(options["lines"]):
        lines = [*lines[: int(options["lines"])], "…"]
    return "".join(f"{line}\n" for line in lines)


def _options(text: str) -> dict[str, str]:
    return dict(word.split("=", 1) for word in shlex.split(text))


def regenerate(text: str) -> str:
    """README's text with every generated example run anew."""

    def block(m: re.Match[str]) -> str:
        output = shape(run(m["command"]), _options(m["options"]))
        return f"<!-- example{m['options']} -->\n```\n$ {m['command']}\n{output}```"

    return BLOCK.sub(block, text)


def examples(text: str) -> dict[str, str]:
    """Each generated example's command and the output the text shows for it."""
    return {m["command"]: m["output"] for m in BLOCK.finditer(text)}


def main(argv: list[str]) -> int:
    text = README.read_text(encoding="utf-8")
    fresh = regenerate(text)
    if "--check" in argv:
        old, new = examples(text), examples(fresh)
        stale = [command for command in old if old[command] != new[command]]
        for command in stale:
            print(f"README.md: the output of `{command}` is not what it prints", file=sys.stderr)
        return 1 if stale else 0
    README.write_text(fresh, encoding="utf-8")
    print(f"README.md: {len(examples(fresh))} examples regenerated")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
