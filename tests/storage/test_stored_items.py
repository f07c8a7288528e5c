"""Not one stored byte changed, and what was stored reads as it did: the story of
tests/storage/stored_items.py against the items and records captured from the code before the
storage was split by its parts (tests/storage/golden/items.json)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from api.storage.memory import InMemoryRepository
from tests.conftest import STORES, MakeTable
from tests.storage.stored_items import GOLDEN, capture, plain, reads, story, unwire


@pytest.fixture(scope="module")
def golden() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(GOLDEN.read_text())
    return data


# What the code stores differently on purpose, by item and attribute, and why. Items stored
# before still read as they did (the test below reads the golden items as they are).
CHANGED = {
    # The `active` index spreads each part over ACTIVE_SPREAD keys (api/storage/keys.py): p1's
    # statistics move from its part's first key to `A#3#3` on their next write; every key of a
    # part is read, so an item still under `A#3` is found as before.
    ("C#p1", "ak"): {"S": "A#3#3"},
    ("C#p3", "ak"): {"S": "A#15#1"},  # and p3's (D19's ok record) from `A#15`
}


def now_stored(item: dict[str, Any]) -> dict[str, Any]:
    pk = item["pk"]["S"]
    return {name: CHANGED.get((pk, name), value) for name, value in item.items()}


@pytest.mark.parametrize("store", STORES)
def test_the_story_stores_the_very_items_it_stored_before(
    store: str, make_table: MakeTable, golden: dict[str, Any]
) -> None:
    found = capture(make_table(store))
    for item, before in zip(found["items"], golden["items"], strict=False):
        assert item == now_stored(before), item["pk"]
    assert [i["pk"] for i in found["items"]] == [i["pk"] for i in golden["items"]]
    assert found["reads"] == golden["reads"]


@pytest.mark.parametrize("store", STORES)
def test_items_stored_before_read_as_they_did(
    store: str, make_table: MakeTable, golden: dict[str, Any]
) -> None:
    repo = make_table(store)
    for item in golden["items"]:
        attrs = {name: unwire(value) for name, value in item.items()}
        repo.client.put_item(TableName=repo.table_name, Item=attrs)
    expected = {k: v for k, v in golden["reads"].items() if k != "counts"}
    assert plain(reads(repo)) == expected


def test_the_fake_reads_back_what_the_table_does(golden: dict[str, Any]) -> None:
    assert plain(story(InMemoryRepository())) == golden["reads"]
