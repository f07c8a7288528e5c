import json

import pytest

from api.cli import build_parser
from wordlists import LANGUAGES, LENGTHS


def run(argv: list[str]) -> int:
    args = build_parser().parse_args(argv)
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
    args = build_parser().parse_args(["wordlists", "build", "--check", "--lang", "en"])
    assert args.check and args.lang == ["en"] and callable(args.handler)
