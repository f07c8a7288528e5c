"""D19: `wordle-tournament fairplay` lists flagged players for operators, with the evidence, and
lets them confirm or clear one; `fairplay simulate` prints the simulation's figures."""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path

import pytest

from api.cli import fairplay as cli
from api.cli import fairplay_simulate as simulate
from api.cli import main
from core.fairplay import record as fr
from core.fairplay import signals as sg
from core.fairplay.farming import FarmMemory
from core.fairplay.record import FairPlay
from core.fairplay.signals import RowFacts


def _solver_like(n: int = 8) -> sg.Tally:
    return sg.tally([RowFacts(200, False, 3.0, 3.0, 100, True, 2.5) for _ in range(n)])


def _person_like() -> sg.Tally:
    return sg.tally([RowFacts(200, False, 30.0, 3.0, 60, False, 14.0) for _ in range(6)])


def _records() -> dict[str, FairPlay]:
    cheat = fr.judge(fr.add(FairPlay(), _solver_like()), now=1_000)
    farm = FairPlay(
        farm=FarmMemory(handed=0b11, refused=50, noticed="t_farm"),
        status=fr.FLAGGED,
        status_at=2_000,
        reasons=("farm",),
    )
    honest = fr.judge(fr.add(FairPlay(), _person_like()), now=1_000)
    cleared = fr.clear(fr.judge(fr.add(FairPlay(), _solver_like()), now=5), "ops-ann", 9)
    return {"p_cheat": cheat, "p_farm": farm, "p_honest": honest, "p_cleared": cleared}


def _file(tmp_path: Path, records: dict[str, FairPlay]) -> Path:
    path = tmp_path / "fairplay.jsonl"
    path.write_text(
        "".join(
            json.dumps({"player": p, "fairplay": fr.to_item(r)}) + "\n" for p, r in records.items()
        )
    )
    return path


def test_d19_operators_list_held_players_with_the_evidence() -> None:
    listing = cli.render(_records().items())
    assert [e["player"] for e in listing["players"]] == ["p_cheat", "p_farm"]
    cheat, farm = listing["players"]
    assert cheat["status"] == "flagged" and cheat["reasons"] == ["choices"]
    assert cheat["why"][0]["reason"] == "choices"
    assert "8 and a near-best" in cheat["why"][0]["detail"]
    assert cheat["signals"]["all"]["judged_rows"] == 8 and cheat["tournaments"] == 1
    assert farm["reasons"] == ["farm"] and "t_farm" in farm["why"][-1]["detail"]
    assert "50 rating points refused" in farm["why"][-1]["detail"]
    everyone = cli.render(_records().items(), cli.STATUSES["all"])
    assert everyone["count"] == 4


def test_d19_fairplay_json_lists_and_decides_through_a_store(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = _file(tmp_path, _records())
    assert main(["fairplay", "--items", str(path), "--json"]) == 0
    listing = json.loads(capsys.readouterr().out)
    assert listing["count"] == 2
    assert main(["fairplay", "confirm", "p_cheat", "--by", "ops-ann", "--items", str(path)]) == 0
    clear = ["fairplay", "clear", "p_farm", "--by", "ops-bob", "--items", str(path), "--json"]
    assert main(clear) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert json.loads(out[-1])["status"] == "cleared"
    stored = dict(cli.FileStore(path).records())
    assert stored["p_cheat"].status == fr.CONFIRMED and stored["p_cheat"].by == "ops-ann"
    assert stored["p_farm"].status == fr.CLEARED and stored["p_farm"].farm.handed == 0
    # an ok player cannot be cleared; an unknown one has no record: a clear error, exit 2
    assert main(["fairplay", "clear", "p_honest", "--by", "x", "--items", str(path)]) == 2
    assert main(["fairplay", "confirm", "nobody", "--by", "x", "--items", str(path)]) == 2
    assert "no fair-play record" in capsys.readouterr().err


def test_d19_a_decision_is_retried_when_a_tournament_changed_the_record(tmp_path: Path) -> None:
    path = _file(tmp_path, _records())
    store = cli.FileStore(path)

    class Racing:
        """A store in which a tournament adds to the record just before the first write."""

        raced = False

        def records(self) -> Iterable[tuple[str, FairPlay]]:
            return store.records()

        def get(self, player_id: str) -> FairPlay | None:
            return store.get(player_id)

        def swap(self, player_id: str, old: FairPlay, new: FairPlay) -> bool:
            if not self.raced:
                self.raced = True
                store.swap(player_id, old, fr.add(old, _solver_like(3)))
            return store.swap(player_id, old, new)

    racing = Racing()
    new = cli.decide(racing, "p_cheat", "confirm", "ops-ann", 50)
    assert racing.raced and new.status == fr.CONFIRMED
    assert store.get("p_cheat") == new and new.tournaments == 2  # the tournament is kept


def test_d19_fairplay_simulate_prints_its_figures() -> None:
    tiny = simulate.Settings(1, 60, 30, 20, 30, 20, 10, 12, 6)
    figures = simulate.run(tiny, progress=False)
    assert figures["false_positives"]["medium person"]["players"] == 30
    assert set(figures["solvers"]) >= {"solver", "solver 70 %, human delays", "hard bot"}
    assert figures["thresholds"]["evidence"] == 5.0
    text = simulate.render(figures)
    assert "False positives over 20 tournaments" in text and "Tournaments until flagged" in text
