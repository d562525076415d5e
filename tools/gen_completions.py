"""Regenerate completions/ from the app: python tools/gen_completions.py

The scripts only call back into `yimao` (values are completed dynamically by the program), so
they change only when Typer's script templates change. tests/test_completions.py checks they
are current.
"""

from __future__ import annotations

from pathlib import Path

from yimao.cli import completion_script

FILES = {"bash": "yimao.bash", "zsh": "_yimao", "fish": "yimao.fish", "powershell": "yimao.ps1"}
OUT = Path(__file__).resolve().parents[1] / "completions"


def main() -> None:
    OUT.mkdir(exist_ok=True)
    for shell, name in FILES.items():
        (OUT / name).write_text(completion_script(shell), encoding="utf-8")
        print(f"wrote completions/{name}")


if __name__ == "__main__":
    main()
