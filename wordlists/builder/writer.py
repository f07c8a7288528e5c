"""The committed data file format (read back by `wordlists.store.parse`)."""

from __future__ import annotations

from collections.abc import Sequence

from wordlists.builder.selection import WordLists
from wordlists.languages import LENGTHS


def render(lists: WordLists, provenance: Sequence[str]) -> str:
    """The file text: a comment header, then per length the secrets and other accepted words."""
    lines = [
        f"# {lists.lang} word lists, made by `wordle-tournament wordlists build`; do not edit."
    ]
    lines += [f"# {line}" for line in provenance]
    for length in LENGTHS:
        secrets = lists.secrets[length]
        secret_set = set(secrets)
        lines.append(f"@{length} secrets")
        lines += ["".join(word) for word in secrets]
        lines.append(f"@{length} accepted")
        lines += ["".join(word) for word in lists.accepted[length] if word not in secret_set]
    return "\n".join(lines) + "\n"
