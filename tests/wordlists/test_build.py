"""The build pipeline is deterministic: the same sources give byte-identical files.

The fixture is a small hunspell dictionary (mini.dic/.aff), its unmunch expansion as committed
JSON (so the selection and writing stages run without Debian's tools) and made-up frequencies.
The full check against Debian's dictionaries is `wordle-tournament wordlists build --check`
(see wordlists/README.md).
"""

import json
import shutil
from pathlib import Path

import pytest

from wordlists.builder.hunspell import Entry, expand, read_affix_settings
from wordlists.builder.pipeline import build_lists, read_blocklist, tiles_of
from wordlists.builder.selection import select
from wordlists.builder.sources import Dictionary, LanguageSource
from wordlists.builder.uzbek_forms import inflected_words
from wordlists.builder.uzbek_script import cyrillic_to_tiles
from wordlists.builder.writer import render
from wordlists.store import parse

FIXTURES = Path(__file__).parent / "fixtures"
SOURCE = LanguageSource("en", (), "en", max_secrets=4, min_zipf=3.5)


def fixture_entries() -> list[Entry]:
    raw = json.loads((FIXTURES / "mini_expanded.json").read_text(encoding="utf-8"))
    return [Entry(stem, frozenset(flags), tuple(forms)) for stem, flags, forms in raw]


def frequencies() -> dict[str, float]:
    data: dict[str, float] = json.loads((FIXTURES / "mini_frequencies.json").read_text())
    return data


def build_fixture() -> str:
    freq = frequencies()
    lists = select(
        SOURCE,
        [fixture_entries()],
        tiles_of("en"),
        read_blocklist("en", FIXTURES),
        lambda word: freq.get(word, 0.0),
    )
    return render(lists, ["fixture"])


def test_build_is_byte_identical_and_matches_the_expected_file() -> None:
    first = build_fixture()
    assert build_fixture() == first
    assert first == (FIXTURES / "mini_expected.txt").read_text(encoding="utf-8")


def test_fixture_selection() -> None:
    loaded = parse("en", build_fixture())
    secrets = {n: set(words) for n, words in loaded.secrets.items()}
    accepted = {n: set(words) | secrets[n] for n, words in loaded.extra_accepted.items()}
    # Base forms only, no proper noun (Paris), no blocked word (crap), no vowel-less hmmm,
    # no form of another entry (dances), none below the minimum frequency (xyzzy). The
    # floor of 500 secrets outranks max_secrets, so every eligible 5-letter stem is a secret.
    assert secrets[4] == {"walk", "city"}
    assert secrets[5] == {"apple", "bread", "chair", "dance", "house", "plant", "stone", "water"}
    assert secrets[6] == {"garden", "planet"}
    assert {"dances", "walked", "cities", "paris", "crap", "xyzzy"} <= (
        accepted[4] | accepted[5] | accepted[6]
    )
    assert "danced" in accepted[6] and "waters" in accepted[6]


def _need_unmunch() -> None:
    if shutil.which("unmunch") is None:
        pytest.fail("needs unmunch: `make system-packages` (part of `make test`) installs it")


def test_unmunch_expansion_matches_the_committed_fixture() -> None:
    _need_unmunch()
    expanded = list(expand(FIXTURES / "mini.dic", FIXTURES / "mini.aff"))
    assert expanded == fixture_entries()


def test_full_pipeline_on_the_fixture_dictionary(tmp_path: Path) -> None:
    _need_unmunch()
    for name in ("mini.dic", "mini.aff"):
        shutil.copy(FIXTURES / name, tmp_path / name)
    source = LanguageSource("en", (Dictionary("mini", "fixture", "1"),), None, max_secrets=4)
    first = render(build_lists(source, tmp_path, None, FIXTURES), [])
    assert render(build_lists(source, tmp_path, None, FIXTURES), []) == first
    secrets = parse("en", first).secrets
    assert {"walk", "city"} <= set(secrets[4]) and "paris" not in secrets[5]


def test_affix_settings_read_the_encoding(tmp_path: Path) -> None:
    aff = tmp_path / "x.aff"
    aff.write_bytes("\ufeffSET ISO8859-2\nFLAG long\nNEEDAFFIX A2\n".encode())
    settings = read_affix_settings(aff)
    assert settings.encoding == "ISO8859-2"
    assert settings.flag_type == "long"
    assert settings.not_word_flags == {"A2"}


@pytest.mark.parametrize(
    ("cyrillic", "latin"),
    [
        ("китоб", "k i t o b"),
        ("ўрик", "oʻ r i k"),
        ("ғишт", "gʻ i sh t"),
        ("чой", "ch o y"),
        ("ер", "y e r"),
        ("шаҳар", "sh a h a r"),
        ("тонг", "t o n g"),
        ("цирк", "s i r k"),
        ("лицей", "l i t s e y"),
        ("юлдуз", "y u l d u z"),
        ("альбом", "a l b o m"),
    ],
)
def test_uzbek_transliteration(cyrillic: str, latin: str) -> None:
    assert cyrillic_to_tiles(cyrillic) == tuple(latin.split())


@pytest.mark.parametrize("cyrillic", ["маъно", "асҳоб", "щи", "ко-ко"])
def test_uzbek_words_left_out(cyrillic: str) -> None:
    assert cyrillic_to_tiles(cyrillic) is None


def test_uzbek_inflected_forms() -> None:
    words = ["бола", "болага", "болалар", "болаларга", "болакай", "китоб", "китобни"]
    assert inflected_words(words) == {"болага", "болалар", "болаларга", "китобни"}
