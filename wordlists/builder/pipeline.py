"""`wordlists build`: from the pinned Debian dictionaries and wordfreq to `wordlists/data/*.txt`."""

from __future__ import annotations

import subprocess
from collections.abc import Callable
from importlib import metadata
from pathlib import Path

from wordlists.builder.hunspell import Entry, dictionary_lines, expand, read_affix_settings
from wordlists.builder.selection import Frequency, ToTiles, Word, WordLists, select
from wordlists.builder.sources import (
    HUNSPELL,
    HUNSPELL_DIR,
    HUNSPELL_TOOLS,
    PYMORPHY,
    PYMORPHY_DICTIONARIES,
    SOURCES,
    WORDFREQ_VERSION,
    LanguageSource,
)
from wordlists.builder.spellcheck import correct_words
from wordlists.builder.uzbek_forms import inflected_words
from wordlists.builder.uzbek_script import cyrillic_to_tiles
from wordlists.builder.writer import render
from wordlists.errors import InvalidCharacters
from wordlists.languages import LENGTHS
from wordlists.normalise import normalise

BLOCKLIST_DIR = Path(__file__).parent / "blocklists"
# Reviewed words that are valid guesses but bad secrets (inflected forms, abbreviations, names,
# loanwords, obscure words): same format as the block lists.
REJECT_DIR = Path(__file__).parent / "rejects"
MIN_LENGTH = min(LENGTHS)
# No typed spelling is longer than two characters per tile (ligatures go the other way).
MAX_TYPED_LENGTH = 2 * max(LENGTHS)


def installed_version(package: str) -> str | None:
    result = subprocess.run(
        ["dpkg-query", "-W", "-f=${Version}", package],
        capture_output=True,
        text=True,
        check=False,
    )
    return result.stdout.strip() if result.returncode == 0 else None


def version_problems(codes: list[str]) -> list[str]:
    """Differences between the pinned and the installed sources (they change the output)."""
    wanted = [HUNSPELL_TOOLS, HUNSPELL] + [
        (d.package, d.version) for code in codes for d in SOURCES[code].dictionaries
    ]
    problems = [
        f"{package}: pinned {version}, installed {installed_version(package) or 'none'}"
        for package, version in dict(wanted).items()
        if installed_version(package) != version
    ]
    python_packages = []
    if any(SOURCES[code].frequency for code in codes):
        python_packages.append(("wordfreq", WORDFREQ_VERSION))
    morphology = [SOURCES[code].morphology for code in codes if SOURCES[code].morphology]
    if morphology:
        python_packages.append(PYMORPHY)
        python_packages += [PYMORPHY_DICTIONARIES[lang] for lang in morphology if lang]
    for package, version in python_packages:
        try:
            found = metadata.version(package)
        except metadata.PackageNotFoundError:
            found = "none"
        if found != version:
            problems.append(f"{package}: pinned {version}, installed {found}")
    return problems


def tiles_of(lang: str) -> ToTiles:
    def to_tiles(form: str) -> Word | None:
        if not MIN_LENGTH <= len(form) <= MAX_TYPED_LENGTH:
            return None  # most expanded forms: no need to normalise them
        try:
            tiles = normalise(lang, form)
        except InvalidCharacters:
            return None
        return tiles if len(tiles) in LENGTHS else None

    return to_tiles


def uzbek_tiles(form: str) -> Word | None:
    tiles = cyrillic_to_tiles(form)
    return tiles if tiles is not None and len(tiles) in LENGTHS else None


def read_blocklist(lang: str, directory: Path = BLOCKLIST_DIR) -> set[Word]:
    path = directory / f"{lang}.txt"
    if not path.exists():
        return set()
    blocked: set[Word] = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        word = line.split("#", 1)[0].strip()
        if word:
            blocked.add(normalise(lang, word))
    return blocked


def wordfreq_frequency(lang: str) -> Frequency:
    from wordfreq import zipf_frequency

    def frequency(word: str) -> float:
        return float(zipf_frequency(word, lang))

    return frequency


def uzbek_entries(directory: Path, name: str) -> tuple[list[Entry], set[str]]:
    aff = directory / f"{name}.aff"
    lines = dictionary_lines(directory / f"{name}.dic", read_affix_settings(aff))
    words = sorted({w.strip() for w in lines if w.strip() and w.strip() == w.strip().lower()})
    return [Entry(w, frozenset(), (w,)) for w in words], inflected_words(words)


def base_form_test(source: LanguageSource) -> Callable[[str], bool] | None:
    if source.morphology is None:
        return None
    from wordlists.builder.morphology import noun_lemma_test

    return noun_lemma_test(source.morphology)


def build_lists(
    source: LanguageSource,
    directory: Path,
    frequency: Frequency | None,
    blocklist_dir: Path = BLOCKLIST_DIR,
    reject_dir: Path = REJECT_DIR,
) -> WordLists:
    blocked = read_blocklist(source.code, blocklist_dir) | read_blocklist(source.code, reject_dir)
    if source.uzbek_cyrillic:
        (dictionary,) = source.dictionaries
        entries, inflected = uzbek_entries(directory, dictionary.name)
        return select(source, [entries], uzbek_tiles, blocked, None, inflected)
    expanded = [
        list(expand(directory / f"{d.name}.dic", directory / f"{d.name}.aff", MAX_TYPED_LENGTH))
        for d in source.dictionaries
    ]
    to_tiles = tiles_of(source.code)
    checked = []
    if source.frequency:
        words = frequent_words(source, to_tiles)
        checked = [correct_words(directory / d.name, words) for d in source.dictionaries]
    return select(
        source,
        expanded,
        to_tiles,
        blocked,
        frequency,
        checked_words=checked,
        base_form=base_form_test(source),
    )


def frequent_words(source: LanguageSource, to_tiles: ToTiles) -> list[str]:
    """wordfreq's words of 4–6 tiles (and, for German, their capitalised spelling)."""
    from wordfreq import iter_wordlist

    if source.frequency is None:
        return []
    words = [w for w in iter_wordlist(source.frequency) if w.isalpha() and to_tiles(w)]
    if source.capitalised_nouns:
        words += [w.capitalize() for w in words]
    return sorted(set(words))


def provenance(source: LanguageSource) -> list[str]:
    lines = [f"{d.package} {d.version} ({d.name})" for d in source.dictionaries]
    lines.append(f"expanded with unmunch from {HUNSPELL_TOOLS[0]} {HUNSPELL_TOOLS[1]}")
    if source.frequency:
        lines.append(f"frequencies: wordfreq {WORDFREQ_VERSION} ({source.frequency})")
        lines.append(f"wordfreq's words checked with {HUNSPELL[0]} {HUNSPELL[1]}")
    else:
        lines.append("secrets ranked by word family size in the dictionary (no wordfreq data)")
    if source.morphology:
        package, version = PYMORPHY_DICTIONARIES[source.morphology]
        lines.append(f"secrets are nouns by {PYMORPHY[0]} {PYMORPHY[1]} with {package} {version}")
    return lines


def build_language(
    code: str,
    directory: Path = Path(HUNSPELL_DIR),
    blocklist_dir: Path = BLOCKLIST_DIR,
    reject_dir: Path = REJECT_DIR,
) -> str:
    source = SOURCES[code]
    frequency = wordfreq_frequency(source.frequency) if source.frequency else None
    lists = build_lists(source, directory, frequency, blocklist_dir, reject_dir)
    return render(lists, provenance(source))


def build_all(
    codes: list[str], output: Path, on_done: Callable[[str], None] = lambda code: None
) -> dict[str, bool]:
    """Write every language's file; returns whether each file changed."""
    changed: dict[str, bool] = {}
    for code in codes:
        text = build_language(code)
        path = output / f"{code}.txt"
        old = path.read_text(encoding="utf-8") if path.exists() else None
        changed[code] = old != text
        path.write_text(text, encoding="utf-8", newline="\n")
        on_done(code)
    return changed
