"""Random and near-miss input in every option: exit 0 or 2, a message on stderr for 2, never a
traceback, never partial stdout."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from yimao.cli import app

runner = CliRunner()

NEAR = {
    "--hex": [
        "kw¹",
        "#²",
        "离之",
        "之乾",
        "离之离",
        "大",
        "火水既济",
        "7988",
        "798780",
        "1011012",
        "䷀䷀",
        "kw65",
        "#0",
        "離之乾",
        "離→",
        "乾->坤->离",
    ],
    "--date": [
        "2026-13-01",
        "2026-02-30T10:00",
        "2026-12-02T25:00+08:00",
        "0000-01-01",
        "99999-01-01",
        "2026-12-02T10:00+25:00",
        "yesterday",
        "1-1-1",
    ],
    "--month": ["¹", "１２", "13", "0", "-1", "寅寅", "正正月", "十三月", "甲", "卯日", "2.5"],
    "--day": ["甲丑", "戊", "寅寅", "甲子子", "癸亥日日", "wu yin", "60"],
    "--use": ["老板", "官官", "7", "0", "世应", ""],
    "--tz": ["Mars/Base", "+25:00", "UTC+", "Asia", "--"],
    "--topic": ["赌博", "", "婚"],
    "--hour": ["午午", "25", "甲"],
    "--year": ["甲", "丙午午", "2026"],
}

texts = st.one_of(st.text(max_size=12), st.sampled_from(sorted({v for vs in NEAR.values() for v in vs})))


def check(args: list[str]) -> None:
    result = runner.invoke(app, args, catch_exceptions=True, env={"TZ": "Asia/Shanghai"})
    assert result.exception is None or isinstance(result.exception, SystemExit), (args, repr(result.exception))
    assert result.exit_code in (0, 2), (args, result.exit_code, result.stderr)
    assert "Traceback" not in result.stderr
    if result.exit_code == 2:
        assert result.stdout == "", (args, result.stdout[:200])
        assert result.stderr.strip(), args


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(NEAR)), texts, st.booleans())
def test_cast_options(option, value, as_json):
    base = ["cast", "--hex", "离之乾", "--month", "卯", "--day", "戊寅"]
    if option in ("--date", "--tz"):
        base = ["cast", "--hex", "离之乾"]
    if option in ("--month", "--day", "--year", "--hour"):
        base = ["cast", "--hex", "离之乾"]
    if option == "--hex":
        base = ["cast", "--month", "卯", "--day", "戊寅"]
    check(base + [option, value] + (["--json"] if as_json else []))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts, st.sampled_from(["star", "hex", "text", "pillars-date", "star-month", "star-day", "stars-month"]))
def test_other_commands(value, command):
    args = {
        "star": ["star", value],
        "hex": ["hex", value],
        "text": ["text", value],
        "pillars-date": ["pillars", "--date", value],
        "star-month": ["star", "天医", "--month", value],
        "star-day": ["star", "五符", "--day", value],
        "stars-month": ["stars", "--month", value, "--json"],
    }[command]
    check(args)


def test_option_values_that_look_like_options():
    for args in (["cast", "--hex"], ["cast", "--hex", "--json"], ["star"], ["hex"], ["cast", "--day-start", "x"], ["bogus"]):
        check(args)
