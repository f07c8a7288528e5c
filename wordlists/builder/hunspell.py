"""Reading hunspell dictionaries: the .aff settings we need and unmunch's affix expansion."""

from __future__ import annotations

import codecs
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

# A line unmunch copies through untouched; written before every entry to split its output into
# one group of forms per dictionary entry.
SENTINEL = "qqxzsentinelzxqq"

_CHUNK = 1 << 24

_FLAG_SETTINGS = ("NEEDAFFIX", "PSEUDOROOT", "FORBIDDENWORD", "ONLYINCOMPOUND")


@dataclass(frozen=True)
class AffixSettings:
    encoding: str
    flag_type: str  # "char" (default), "long", "num" or "UTF-8"
    # Flags marking entries that are not words on their own.
    not_word_flags: frozenset[str]
    # Flags with an empty affix: the stem is then a word even when marked NEEDAFFIX (French).
    empty_affix_flags: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Entry:
    """A dictionary entry: its stem as written and every form unmunch derives, stem first."""

    stem: str
    flags: frozenset[str]
    forms: tuple[str, ...]


def read_affix_settings(aff: Path) -> AffixSettings:
    raw = aff.read_bytes().removeprefix(codecs.BOM_UTF8)
    head = raw.decode("latin-1")
    encoding = "ISO8859-1"
    if match := re.search(r"^SET\s+(\S+)", head, re.MULTILINE):
        encoding = match.group(1)
    text = raw.decode(python_encoding(encoding))
    flag_type = "char"
    if match := re.search(r"^FLAG\s+(\S+)", text, re.MULTILINE):
        flag_type = match.group(1)
    not_word = {
        m.group(1)
        for key in _FLAG_SETTINGS
        for m in re.finditer(rf"^{key}\s+(\S+)", text, re.MULTILINE)
    }
    empty = {
        m.group(1) for m in re.finditer(r"^[SP]FX\s+(\S+)\s+0\s+0(?:/\S*)?\s", text, re.MULTILINE)
    }
    return AffixSettings(encoding, flag_type, frozenset(not_word), frozenset(empty))


def python_encoding(hunspell_encoding: str) -> str:
    name = hunspell_encoding.upper().replace("ISO8859", "ISO-8859")
    return codecs.lookup(name).name


def split_flags(flags: str, flag_type: str) -> frozenset[str]:
    if flag_type == "long":
        return frozenset(flags[i : i + 2] for i in range(0, len(flags), 2))
    if flag_type == "num":
        return frozenset(f for f in flags.split(",") if f)
    return frozenset(flags)


def parse_entry(line: str, flag_type: str) -> tuple[str, frozenset[str]] | None:
    """The stem and flags of a .dic line, or None for blank and comment lines."""
    word = line.split("\t", 1)[0].split(" ", 1)[0].strip()
    if not word or word.startswith("#"):
        return None
    stem, _, flags = word.partition("/")
    return (stem, split_flags(flags, flag_type)) if stem else None


def dictionary_lines(dic: Path, settings: AffixSettings) -> list[str]:
    text = dic.read_bytes().removeprefix(codecs.BOM_UTF8).decode(python_encoding(settings.encoding))
    lines = text.splitlines()
    return lines[1:]  # the first line is the entry count


def unmunch_path() -> str:
    found = shutil.which("unmunch")
    if found is None:
        raise RuntimeError("unmunch not found: install Debian's hunspell-tools to rebuild")
    return found


def _unmunch_lines(dic: Path, aff: Path, encoding: str) -> Iterator[str]:
    with subprocess.Popen(
        [unmunch_path(), str(dic), str(aff)], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL
    ) as process:
        assert process.stdout is not None
        rest = b""
        while chunk := process.stdout.read(_CHUNK):
            chunk = rest + chunk
            cut = chunk.rfind(b"\n") + 1
            rest = chunk[cut:]
            yield from chunk[:cut].decode(encoding).split("\n")[:-1]
        if rest:
            yield rest.decode(encoding)
    if process.returncode:
        raise RuntimeError(f"unmunch failed on {dic} with status {process.returncode}")


def expand(dic: Path, aff: Path, max_length: int | None = None) -> Iterator[Entry]:
    """Every entry of the dictionary with the forms unmunch generates for it.

    With `max_length`, longer forms are dropped (the stem is always kept): it keeps the memory
    of Italian or Brazilian Portuguese, whose expansions run to tens of millions of forms, small.
    """
    settings = read_affix_settings(aff)
    encoding = python_encoding(settings.encoding)
    entries: list[tuple[str, frozenset[str]]] = []
    raw_lines: list[str] = []
    for line in dictionary_lines(dic, settings):
        if parsed := parse_entry(line, settings.flag_type):
            entries.append(parsed)
            raw_lines.append(line)
    limit = max_length if max_length is not None else sys.maxsize
    with tempfile.TemporaryDirectory() as tmp:
        marked = Path(tmp) / "marked.dic"
        body = "".join(f"{SENTINEL}\n{line}\n" for line in raw_lines)
        marked.write_bytes(f"{2 * len(raw_lines)}\n{body}".encode(encoding, errors="strict"))
        groups: list[list[str]] = []
        for line in _unmunch_lines(marked, aff, encoding):
            if line == SENTINEL:
                groups.append([])
            elif len(line) <= limit and groups:
                # unmunch prints twofold suffixes' continuation flags: chats/D'Q'|
                groups[-1].append(line.split("/", 1)[0])
    if len(groups) != len(entries):
        raise RuntimeError(f"{dic}: unmunch gave {len(groups)} groups for {len(entries)} entries")
    for (stem, flags), forms in zip(entries, groups, strict=True):
        forms = list(dict.fromkeys(forms))
        if flags & settings.not_word_flags and not flags & settings.empty_affix_flags:
            forms = [f for f in forms if f != stem]
        elif stem not in forms:
            forms.insert(0, stem)
        yield Entry(stem, flags, tuple(forms))
