"""`make package`: the Lambda package of one stage, built by zappa, byte for byte reproducible.

    python infra/package.py [--stage dev] [--output dist/wordle-tournament-dev.zip]

Standard library only: it runs with any Python ≥ 3.11 and drives zappa in its own virtualenv.

1. `build/venv-deploy` holds exactly `infra/requirements-deploy.txt` (the runtime dependencies
   and zappa, pinned), reinstalled whenever that file changes. zappa packages the whole
   site-packages of the virtualenv it runs in, so this venv never holds the dev tools; what zappa
   itself needs only to build (troposphere, requests, PyYAML, …) and what the Lambda runtime
   already provides (boto3, botocore and their dependencies) is left out by the `exclude` lists
   of `infra/zappa_settings.json`.
2. The runtime's compiled wheels (MarkupSafe for cp313 on aarch64) are fetched with
   `pip download` into zappa's wheel cache, so zappa finds them without its own look-up on
   PyPI's JSON API (which fails silently where that host is unreachable, and would then ship
   this machine's x86-64 build).
3. `build/stage-<stage>` receives the source packages only (api, core, scheduler, wordlists
   without the word-list builder): zappa zips its working directory, and the repository's root
   holds .venv, tests and docs.
4. `zappa package <stage> -s infra/zappa_settings.json -o …` runs there.
5. The zip is rewritten deterministically: entries sorted, fixed timestamps and modes, and
   zappa's `package_info.json` (a random uuid, the build time and user) replaced by one derived
   from the content. Then it is checked: the entry points are there, boto3/botocore are not, and
   every native library is an aarch64 build for the runtime's Python. Built by the runtime's
   Python (3.13), it also gets deterministic .pyc files; built by another, it has none, and
   says so (Lambda then compiles the modules at every cold start).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import uuid
import zipfile
from importlib._bootstrap_external import _code_to_hash_pyc  # type: ignore[attr-defined]
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "build"
VENV = BUILD / "venv-deploy"
LOCK = ROOT / "infra" / "requirements-deploy.txt"
SETTINGS = ROOT / "infra" / "zappa_settings.json"
SOURCES = ("api", "core", "scheduler", "wordlists")
SKIP_DIRS = {"__pycache__", "builder"}  # wordlists/builder: only `wordlists build` uses it
EPOCH = (1980, 1, 1, 0, 0, 0)  # the earliest time a zip entry can hold
MUST_HAVE = ("handler.py", "zappa_settings.py", "zappa/handler.py", "api/lambda_app.py")
MUST_NOT_HAVE = ("boto3/", "botocore/", "s3transfer/", "pip/", "setuptools/", "troposphere/")
ELF_MACHINES = {"arm64": 183, "x86_64": 62}  # e_machine: EM_AARCH64, EM_X86_64


def stage_settings(stage: str) -> dict[str, object]:
    """The settings of `stage`, with zappa's `extends` resolved."""
    settings = json.loads(SETTINGS.read_text())
    if stage not in settings:
        raise SystemExit(f"no stage {stage!r} in {SETTINGS} (stages: {', '.join(settings)})")
    merged: dict[str, object] = {}
    chain = [stage]
    while "extends" in settings[chain[-1]]:
        chain.append(settings[chain[-1]]["extends"])
    for name in reversed(chain):
        merged.update(settings[name])
    merged.pop("extends", None)
    return merged


def run(cmd: list[str], **kwargs: object) -> None:
    print("+", " ".join(str(c) for c in cmd), file=sys.stderr)
    subprocess.run(cmd, check=True, **kwargs)  # type: ignore[call-overload]


def venv_python() -> Path:
    return VENV / "bin" / "python"


def ensure_venv() -> None:
    """Create or refresh build/venv-deploy from the lock file."""
    stamp = VENV / ".installed"
    want = hashlib.sha256(LOCK.read_bytes()).hexdigest() + f" py{sys.version_info[:2]}"
    if stamp.exists() and stamp.read_text() == want and venv_python().exists():
        return
    if VENV.exists():
        shutil.rmtree(VENV)  # a clean venv: nothing left over from an older lock gets packaged
    run([sys.executable, "-m", "venv", str(VENV)])
    run([str(venv_python()), "-m", "pip", "install", "--quiet", "--no-deps", "-r", str(LOCK)])
    run([str(venv_python()), "-m", "pip", "check"])
    stamp.write_text(want)


def site_packages() -> Path:
    found = sorted((VENV / "lib").glob("python3.*/site-packages"))
    if len(found) != 1:
        raise SystemExit(f"expected one site-packages in {VENV}, found {found}")
    return found[0]


def native_distributions() -> list[tuple[str, str]]:
    """(name, version) of the venv's distributions that are not pure Python."""
    native = []
    for info in sorted(site_packages().glob("*.dist-info")):
        wheel = info / "WHEEL"
        if wheel.exists() and "Root-Is-Purelib: false" in wheel.read_text():
            meta = (info / "METADATA").read_text().splitlines()
            fields = dict(line.split(": ", 1) for line in meta if ": " in line)
            native.append((fields["Name"], fields["Version"]))
    return native


def seed_wheels(cache: Path, runtime: str, architecture: str) -> None:
    """Put the runtime's wheels of the native distributions where zappa looks first."""
    version = runtime.removeprefix("python")
    machine = "aarch64" if architecture == "arm64" else "x86_64"
    cache.mkdir(parents=True, exist_ok=True)
    for name, dist_version in native_distributions():
        cmd = [
            str(venv_python()),
            *("-m", "pip", "download", "--quiet", "--no-deps", "--only-binary=:all:"),
            *("--implementation", "cp", "--python-version", version),
            *("--platform", f"manylinux2014_{machine}", "--platform", f"manylinux_2_28_{machine}"),
            *("-d", str(cache), f"{name}=={dist_version}"),
        ]
        try:
            run(cmd)
        except subprocess.CalledProcessError:
            # Fine for what zappa needs only to build (PyYAML, …): the checks below fail the
            # build if a native library of the wrong kind ends up in the package.
            print(
                f"warning: no {runtime} {machine} wheel of {name} {dist_version}", file=sys.stderr
            )


def stage_sources(stage_dir: Path) -> None:
    if stage_dir.exists():
        shutil.rmtree(stage_dir)
    stage_dir.mkdir(parents=True)

    def ignore(directory: str, names: list[str]) -> set[str]:
        return {n for n in names if n in SKIP_DIRS or n.endswith((".pyc", ".pyo"))}

    for name in SOURCES:
        shutil.copytree(ROOT / name, stage_dir / name, ignore=ignore)


def bytecode(entries: dict[str, bytes], runtime: str) -> dict[str, bytes]:
    """Unchecked-hash .pyc files for every module, if this Python is the runtime's.

    Lambda's /var/task is read-only: without them every cold start compiles every module it
    imports (measured here: about 2/3 of the handler's start). Hash-based and unchecked, they
    are deterministic and never compared with a source timestamp.
    """
    tag = sys.implementation.cache_tag  # e.g. cpython-313
    if f"python{sys.version_info[0]}.{sys.version_info[1]}" != runtime:
        print(
            f"warning: building with Python {sys.version_info[0]}.{sys.version_info[1]}, not"
            f" {runtime}: no .pyc in the package (each cold start compiles the modules)",
            file=sys.stderr,
        )
        return {}
    compiled = {}
    for name, source in entries.items():
        if not name.endswith(".py"):
            continue
        try:
            code = compile(source, "/var/task/" + name, "exec", dont_inherit=True)
        except SyntaxError:
            continue  # a template or a file for another Python: the import would fail anyway
        folder, _, module = name.rpartition("/")
        pyc = f"{folder}/__pycache__/{module[:-3]}.{tag}.pyc".lstrip("/")
        data = _code_to_hash_pyc(code, importlib.util.source_hash(source), checked=False)
        compiled[pyc] = bytes(data)
    return compiled


def normalise(raw: Path, output: Path, runtime: str) -> None:
    """Rewrite zappa's zip so that the same inputs always give the same bytes."""
    entries: dict[str, bytes] = {}
    with zipfile.ZipFile(raw) as source:
        for info in source.infolist():
            if not info.is_dir() and "__pycache__/" not in info.filename:
                entries[info.filename] = source.read(info)  # a repeated name: the last one wins
    entries.update(bytecode(entries, runtime))
    content = hashlib.sha256()
    for name in sorted(entries):
        if name != "package_info.json":
            content.update(name.encode() + b"\0" + hashlib.sha256(entries[name]).digest())
    build_time = os.environ.get("SOURCE_DATE_EPOCH", "315532800")
    package_info = {
        "uuid": str(uuid.uuid5(uuid.NAMESPACE_URL, "sha256:" + content.hexdigest())),
        "build_time": build_time,
        "build_platform": "linux",
        "build_user": "wordle-tournament",
    }
    entries["package_info.json"] = json.dumps(package_info, indent=4).encode()
    output.parent.mkdir(parents=True, exist_ok=True)
    tmp = output.with_suffix(".tmp")
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as target:
        for name in sorted(entries):
            info = zipfile.ZipInfo(name, date_time=EPOCH)
            info.create_system = 3  # unix, so that the mode below is honoured
            info.external_attr = 0o100755 << 16  # zappa's mode: readable by Lambda's user
            info.compress_type = zipfile.ZIP_DEFLATED
            target.writestr(info, entries[name], compresslevel=9)
    tmp.replace(output)


def check(output: Path, runtime: str, architecture: str) -> None:
    problems = []
    with zipfile.ZipFile(output) as package:
        names = package.namelist()
        for name in MUST_HAVE:
            if name not in names:
                problems.append(f"missing {name}")
        for name in names:
            if name.startswith(MUST_NOT_HAVE):
                problems.append(f"should not ship {name}")
            tag = runtime.replace("python", "cpython-").replace(".", "")
            if name.endswith(".pyc") and not name.endswith(f".{tag}.pyc"):
                problems.append(f"{name} is bytecode for another Python than {runtime}")
            if name.endswith(".so") or ".so." in name:
                header = package.read(name)[:20]
                machine = int.from_bytes(header[18:20], "little")
                tag = runtime.replace("python", "cpython-").replace(".", "")
                if header[:4] != b"\x7fELF" or machine != ELF_MACHINES[architecture]:
                    problems.append(f"{name} is not an {architecture} ELF library")
                elif "cpython-" in name and tag not in name:
                    problems.append(f"{name} is not built for {runtime}")
    if problems:
        raise SystemExit("the package is wrong:\n  " + "\n  ".join(problems))


def build(stage: str, output: Path) -> Path:
    settings = stage_settings(stage)
    runtime = str(settings["runtime"])
    architecture = str(settings["architecture"])
    ensure_venv()
    tmp = BUILD / "zappa-tmp"  # zappa's caches (wheels, PyPI metadata) live under TMPDIR
    seed_wheels(tmp / "cached_wheels", runtime, architecture)
    stage_dir = BUILD / f"stage-{stage}"
    stage_sources(stage_dir)
    raw = BUILD / f"zappa-{stage}.zip"
    raw.unlink(missing_ok=True)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env.update(
        VIRTUAL_ENV=str(VENV),
        PATH=f"{VENV / 'bin'}{os.pathsep}{env.get('PATH', '')}",
        TMPDIR=str(tmp),
        PIP_TIMEOUT=env.get("PIP_TIMEOUT", "3"),
    )
    zappa = [str(VENV / "bin" / "zappa"), "package", stage, "-s", str(SETTINGS), "-o", str(raw)]
    run(zappa, cwd=stage_dir, env=env)
    output = output if output.is_absolute() else ROOT / output
    normalise(raw, output, runtime)
    check(output, runtime, architecture)
    raw.unlink()
    digest = hashlib.sha256(output.read_bytes()).hexdigest()
    size = output.stat().st_size
    shown = output.relative_to(ROOT) if output.is_relative_to(ROOT) else output
    print(f"{shown}: {size / 1e6:.2f} MB zipped, sha256 {digest}")
    return output


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stage", default="dev")
    parser.add_argument("--output", type=Path, help="default: dist/wordle-tournament-<stage>.zip")
    args = parser.parse_args(argv)
    output = args.output or Path("dist") / f"wordle-tournament-{args.stage}.zip"
    build(args.stage, output)
    return 0


if __name__ == "__main__":
    sys.exit(main())
