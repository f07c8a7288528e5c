"""docs/rules.md is the rules reference: it defines every rule that code, tests and docs cite, and
nothing in README.md or docs/ links outside the repository."""

import re
from pathlib import Path
from urllib.parse import unquote

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules.md"

# Where rules are cited: the project's own sources, tests and documents (not word data).
CITING_DIRS = ("api", "core", "scheduler", "wordlists", "infra", "tests", "docs")
CITING_SUFFIXES = {".py", ".md", ".js", ".html", ".css", ".json", ".yaml", ".yml", ".toml"}
SKIPPED_PARTS = {"data", "rejects", "artifacts", "__pycache__", "node_modules"}

DEFINITION = re.compile(r"^- \*\*([RD]\d+)\*\* ", re.MULTILINE)
CITATION = re.compile(r"\b([RD]\d+)\b")
TEST_NAME = re.compile(r"\bdef (test_\w+)")
MD_LINK = re.compile(r"\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
AUTOLINK = re.compile(r"<([a-z][a-z0-9+.-]*:[^>\s]+)>")


def citing_files() -> list[Path]:
    files = [ROOT / "README.md", ROOT / "Makefile", ROOT / "pyproject.toml"]
    for top in CITING_DIRS:
        for path in (ROOT / top).rglob("*"):
            if (
                path.is_file()
                and path.suffix in CITING_SUFFIXES
                and not SKIPPED_PARTS & set(path.relative_to(ROOT).parts)
            ):
                files.append(path)
    return files


def named_in_tests(text: str) -> set[str]:
    """R/D numbers in the names of the test functions in `text` (`test_r12_…` names R12)."""
    return {
        part.upper()
        for name in TEST_NAME.findall(text)
        for part in name.split("_")
        if re.fullmatch(r"[rd]\d+", part)
    }


def cited_rules(text: str) -> set[str]:
    """R/D numbers written as such (`R12`, `D8`) or in a test's name."""
    return set(CITATION.findall(text)) | named_in_tests(text)


def defined_rules() -> list[str]:
    return DEFINITION.findall(RULES.read_text(encoding="utf-8"))


def test_rules_md_defines_r1_to_r25_and_d1_to_d19_once_each() -> None:
    defined = defined_rules()
    expected = {f"R{n}" for n in range(1, 26)} | {f"D{n}" for n in range(1, 20)}
    assert sorted(defined) == sorted(expected)  # each exactly once, none else


def test_every_cited_rule_is_defined_in_rules_md() -> None:
    defined = set(defined_rules())
    files = citing_files()
    assert any(p.name == "tournament.py" for p in files)  # the walk found the sources
    undefined = {
        f"{path.relative_to(ROOT)}: {rule}"
        for path in files
        for rule in cited_rules(path.read_text(encoding="utf-8", errors="replace"))
        if rule not in defined
    }
    assert not undefined, sorted(undefined)


def test_each_implemented_rule_has_a_test_named_after_it() -> None:
    """Every rule: R1–R25 and D1–D19."""
    named: set[str] = set()
    for path in (ROOT / "tests").rglob("test_*.py"):
        if path == Path(__file__).resolve():
            continue  # this file's examples and names must not count
        named |= named_in_tests(path.read_text(encoding="utf-8"))
    rules = [f"R{n}" for n in range(1, 26)] + [f"D{n}" for n in range(1, 20)]
    assert [rule for rule in rules if rule not in named] == []


def test_citations_are_found_in_text_and_in_test_names() -> None:
    text = '"""R10–R14, D3."""\ndef test_r8_d1_share() -> None: ...\nduel id r3d2, R2D2s, UR12'
    assert cited_rules(text) == {"R10", "R14", "D3", "R8", "D1"}


def links(markdown: str) -> list[str]:
    return MD_LINK.findall(markdown) + AUTOLINK.findall(markdown)


def test_links_are_found() -> None:
    text = '[a](docs/x.md) [b](../y.md#z "title") <https://example.org> [c](#local)'
    assert links(text) == ["docs/x.md", "../y.md#z", "#local", "https://example.org"]


def test_readme_and_docs_link_nowhere_outside_the_repository() -> None:
    documents = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
    outside = []
    for doc in documents:
        for target in links(doc.read_text(encoding="utf-8")):
            if re.match(r"https?://", target) or target.startswith("#"):
                continue  # public references (and the local stack's address) are fine
            path = (doc.parent / unquote(target.split("#")[0])).resolve()
            if not path.is_relative_to(ROOT) or not path.exists():
                outside.append(f"{doc.relative_to(ROOT)}: {target}")
    assert not outside, outside


def test_no_reference_to_files_outside_the_repository_or_to_issues() -> None:
    pattern = re.compile(r"\.\./shared|\bRULES\.md|\bNOTES\.md|(?i:\bissues? #?\d+)")
    found = [
        f"{path.relative_to(ROOT)}: {match.group(0)}"
        for path in citing_files()
        if path != Path(__file__).resolve()
        for match in pattern.finditer(path.read_text(encoding="utf-8", errors="replace"))
    ]
    assert not found, found
