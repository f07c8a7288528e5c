import argparse
import json

import pytest

from wordlists import LANGUAGES, LENGTHS
from wordlists.cli import register


def run(argv: list[str]) -> int:
    parser = argparse.ArgumentParser()
    commands = parser.add_subparsers(dest="command", required=True)
    bench = commands.add_parser("bench").add_subparsers(dest="bench", required=True)
    register(commands, bench)
    args = parser.parse_args(argv)
    result: int = args.handler(args)
    return result


def test_stats_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["wordlists", "stats", "--json"]) == 0
    table = json.loads(capsys.readouterr().out)
    assert list(table) == list(LANGUAGES)
    for by_length in table.values():
        assert list(by_length) == [str(n) for n in LENGTHS]
        for cell in by_length.values():
            assert set(cell) == {"secrets", "accepted"}
            assert 0 < cell["secrets"] <= cell["accepted"]


def test_stats_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["wordlists", "stats"]) == 0
    out = capsys.readouterr().out
    assert all(f"\n{code} " in out for code in LANGUAGES)


def test_bench(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["bench", "wordlists", "--lang", "en"]) == 0
    out = capsys.readouterr().out
    assert "load:" in out and "memory:" in out and "lookups:" in out


def test_build_is_registered() -> None:
    parser = argparse.ArgumentParser()
    commands = parser.add_subparsers(dest="command")
    bench = commands.add_parser("bench").add_subparsers(dest="bench")
    register(commands, bench)
    args = parser.parse_args(["wordlists", "build", "--check", "--lang", "en"])
    assert args.check and args.lang == ["en"] and callable(args.handler)
