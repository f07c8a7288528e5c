"""Checking words with the hunspell engine itself (`hunspell -G`), which knows forms that
unmunch cannot expand: French conjugations, compounds, twofold suffixes."""

from __future__ import annotations

import shutil
import subprocess
from collections.abc import Iterable
from pathlib import Path

from wordlists.builder.hunspell import python_encoding, read_affix_settings


def hunspell_path() -> str:
    found = shutil.which("hunspell")
    if found is None:
        raise RuntimeError("hunspell not found: install Debian's hunspell package to rebuild")
    return found


def correct_words(dictionary: Path, words: Iterable[str]) -> set[str]:
    """The words that the dictionary (path without .dic/.aff) accepts as spelled."""
    hunspell_encoding = read_affix_settings(dictionary.with_suffix(".aff")).encoding
    encoding = python_encoding(hunspell_encoding)
    encodable = []
    for word in words:
        try:
            word.encode(encoding)
        except UnicodeEncodeError:
            continue
        encodable.append(word)
    result = subprocess.run(
        [hunspell_path(), "-d", str(dictionary), "-G", "-i", hunspell_encoding],
        input="\n".join(encodable).encode(encoding),
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        check=True,
    )
    return set(result.stdout.decode(encoding).split("\n")) - {""}
