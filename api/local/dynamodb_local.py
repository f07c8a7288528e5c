"""Amazon DynamoDB Local as a child process: `make run`'s store and the tests' real engine.

`make dynamodb-local` unpacks its jar into `.dynamodb-local/` of the checkout (see the Makefile);
it needs Java >= 17. One instance serves one folder of data (`-sharedDb -dbPath`, so every
credential and region sees the same tables) or keeps everything in memory (`-inMemory`).

The child never outlives this process: it is stopped at exit (also after Ctrl-C, and after
SIGTERM once `stop_on_sigterm()` is installed), and the kernel sends it SIGTERM if this process
dies without running any of that (PR_SET_PDEATHSIG). It runs in its own session, so a Ctrl-C in
the terminal reaches only this process, which then stops it in order.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import http.client
import os
import shutil
import signal
import socket
import subprocess
import tempfile
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from types import FrameType
from typing import IO

CHECKOUT = Path(__file__).resolve().parents[2]
HOME = CHECKOUT / ".dynamodb-local"
MEMORY = ":memory:"
# The JVM's quick-start options (C1 compiler only, serial GC): ready in about half the time, for
# short runs such as a test session; long ones (the load test) are better off without.
QUICK_START = ("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC")
_PR_SET_PDEATHSIG = 1
DISK_FULL_MEMORY_S = 30.0  # a 500 this soon after "disk is full" is taken for the same cause


class DynamoDBLocalError(RuntimeError):
    pass


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


def _die_with_parent() -> None:  # pragma: no cover - runs in the child, before exec
    """SIGTERM to the child when the thread that started it ends (start it from the main one)."""
    with contextlib.suppress(OSError):  # not Linux: the exit and signal handlers still stop it
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(_PR_SET_PDEATHSIG, signal.SIGTERM)


def _answers(port: int) -> bool:
    """Whether something speaks HTTP on the port (DynamoDB Local answers an unsigned call 400)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
    try:
        conn.request("POST", "/", body=b"{}", headers={"Content-Type": "application/json"})
        conn.getresponse().read()
        return True
    except OSError:
        return False
    finally:
        conn.close()


def java_command() -> str:
    home = os.environ.get("JAVA_HOME")
    java = str(Path(home) / "bin" / "java") if home else shutil.which("java")
    if not java or not Path(java).exists():
        raise DynamoDBLocalError(
            "DynamoDB Local needs Java >= 17: `make dynamodb-local` installs it "
            "(or set WT_STORE=moto for a Java-free stack)"
        )
    return java


class DynamoDBLocal:
    """One DynamoDB Local: `start()` returns its endpoint URL, `stop()` ends it."""

    def __init__(
        self,
        data_dir: str | Path | None = MEMORY,
        *,
        home: Path = HOME,
        jvm_options: Sequence[str] = (),
    ) -> None:
        """`data_dir`: a folder for its database file (created if missing), or MEMORY/None."""
        self.jvm_options = tuple(jvm_options)
        self.in_memory = data_dir is None or str(data_dir) == MEMORY
        self.data_dir = None if self.in_memory else Path(str(data_dir)).resolve()
        self.home = home
        self.endpoint: str | None = None
        self._process: subprocess.Popen[bytes] | None = None
        self._log: IO[bytes] | None = None
        self._lock = threading.RLock()  # _launch may stop() while start() holds it
        self._read_to = 0  # how much of the output `disk_full` has read
        self._read_lock = threading.Lock()
        self._full_at: float | None = None  # when its output last said the disk is full

    @property
    def pid(self) -> int | None:
        return None if self._process is None else self._process.pid

    def _command(self, port: int) -> list[str]:
        jar = self.home / "DynamoDBLocal.jar"
        if not jar.exists():
            raise DynamoDBLocalError(
                f"DynamoDB Local is not in {self.home}: run `make dynamodb-local` "
                "(or set WT_STORE=moto for a Java-free stack)"
            )
        storage = ["-inMemory"] if self.data_dir is None else ["-dbPath", str(self.data_dir)]
        return [
            java_command(),
            *self.jvm_options,
            f"-Djava.library.path={self.home / 'DynamoDBLocal_lib'}",
            "-jar",
            str(jar),
            "-sharedDb",
            *storage,
            "-port",
            str(port),
            "-disableTelemetry",
        ]

    def start(self, timeout: float = 60.0) -> str:
        """Start it on a free port and wait until it answers; returns the endpoint URL."""
        with self._lock:
            if self.endpoint is not None:
                return self.endpoint
            if self.data_dir is not None:
                self.data_dir.mkdir(parents=True, exist_ok=True)
            for _attempt in range(3):  # the free port may be taken before java binds it
                port = _free_port()
                if self._launch(port, timeout):
                    self.endpoint = f"http://127.0.0.1:{port}"
                    _running.add(self)
                    return self.endpoint
            raise DynamoDBLocalError("DynamoDB Local found no free port")

    def _launch(self, port: int, timeout: float) -> bool:
        """True once it answers on `port`; False if the port was taken; raises otherwise."""
        self._log = tempfile.TemporaryFile(prefix="dynamodb-local-")  # noqa: SIM115 - closed in stop()
        env = {**os.environ, "DDB_LOCAL_TELEMETRY": "0"}
        self._process = subprocess.Popen(
            self._command(port),
            stdin=subprocess.DEVNULL,
            stdout=self._log,
            stderr=subprocess.STDOUT,
            env=env,
            start_new_session=True,
            preexec_fn=_die_with_parent,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                output = self._output()
                self._reap()
                if "Address already in use" in output or "BindException" in output:
                    return False
                raise DynamoDBLocalError(f"DynamoDB Local exited at start:\n{output[-2000:]}")
            if _answers(port):
                return True
            time.sleep(0.1)
        output = self._output()
        self.stop()
        raise DynamoDBLocalError(f"DynamoDB Local did not answer in {timeout:g} s:\n{output}")

    def _output(self) -> str:
        if self._log is None:
            return ""
        return os.pread(self._log.fileno(), 1 << 24, 0).decode(errors="replace")

    def exited(self) -> int | None:
        """The child's exit status (negative: the signal that ended it) once it has exited,
        reaping it; None while it runs, and once stopped."""
        with self._lock:
            return None if self._process is None else self._process.poll()

    def restart(self, timeout: float = 60.0) -> str:
        """Start it again after it exited: on the same port (the endpoint every connection
        knows) and the same data folder. Call it from a thread that lives as long as the
        child should (PR_SET_PDEATHSIG follows the thread that starts it). Raises
        DynamoDBLocalError if it cannot start."""
        with self._lock:
            if self.endpoint is None:
                raise DynamoDBLocalError("DynamoDB Local was stopped")
            if self._process is not None and self._process.poll() is None:
                return self.endpoint
            self._reap()
            port = int(self.endpoint.rsplit(":", 1)[1])
            if not self._launch(port, timeout):
                raise DynamoDBLocalError(f"port {port} is taken by another program")
            return self.endpoint

    def last_words(self, lines: int = 3) -> str:
        """The last lines of its output (why it exited, if it said)."""
        with self._lock:
            return "\n".join(self._output().strip().splitlines()[-lines:])

    def disk_full(self) -> bool:
        """Whether its output said, within the last DISK_FULL_MEMORY_S, that the data folder's
        disk is full (SQLite's SQLITE_FULL: how DynamoDB Local's 500 on a full disk explains
        itself), or the folder's file system has under 1 MiB left."""
        said = b""
        with self._read_lock:  # not self._lock, which a restart holds for seconds
            try:
                if self._log is not None:
                    fd = self._log.fileno()
                    size = os.fstat(fd).st_size
                    said = os.pread(fd, min(size - self._read_to, 1 << 20), self._read_to)
                    self._read_to = size
            except (OSError, ValueError):  # reaped meanwhile: its output is gone
                pass
        now = time.monotonic()
        if b"database or disk is full" in said:
            self._full_at = now
        if self._full_at is not None and now - self._full_at < DISK_FULL_MEMORY_S:
            return True
        if self.data_dir is None:
            return False
        try:
            return shutil.disk_usage(self.data_dir).free < 1 << 20
        except OSError:
            return False

    def _reap(self) -> None:
        if self._log is not None:
            self._log.close()
        self._process = self._log = None
        self._read_to = 0

    def stop(self, timeout: float = 10.0) -> None:
        """Stop it (SIGTERM, then SIGKILL after `timeout`); its data folder stays."""
        with self._lock:
            process = self._process
            if process is not None and process.poll() is None:
                process.terminate()
                try:
                    process.wait(timeout)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
            self._reap()
            self.endpoint = None
            _running.discard(self)

    def __enter__(self) -> DynamoDBLocal:
        self.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop()


_running: set[DynamoDBLocal] = set()


@atexit.register
def _stop_all() -> None:
    for instance in list(_running):
        instance.stop()


def stop_on_sigterm() -> None:
    """Make SIGTERM exit like Ctrl-C does (SystemExit), so that the exit handlers stop every
    DynamoDB Local. For the main thread of a program (`make run`, the load test)."""

    def exit_now(signum: int, frame: FrameType | None) -> None:
        raise SystemExit(128 + signum)

    signal.signal(signal.SIGTERM, exit_now)
