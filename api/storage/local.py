"""A DynamoDB endpoint inside this process (moto), for `make run` and the tests."""

from __future__ import annotations

import logging
import os

from moto.server import ThreadedMotoServer

_servers: list[ThreadedMotoServer] = []  # kept alive for the life of the process


def start_local_dynamodb(ip_address: str = "127.0.0.1", port: int = 0) -> str:
    """Start moto's HTTP server on a free port and return its endpoint URL.

    It speaks the real DynamoDB wire protocol, so requests take the same botocore path as in AWS.
    Dummy credentials and region are set when absent: botocore signs every request.
    """
    os.environ.setdefault("AWS_ACCESS_KEY_ID", "testing")
    os.environ.setdefault("AWS_SECRET_ACCESS_KEY", "testing")
    os.environ.setdefault("AWS_DEFAULT_REGION", "us-east-1")
    # werkzeug logs every request at INFO, which slows moto's server down noticeably.
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    server = ThreadedMotoServer(ip_address=ip_address, port=port, verbose=False)
    server.start()
    _servers.append(server)
    host, bound = server.get_host_and_port()
    return f"http://{host}:{bound}"


def stop_local_dynamodb() -> None:
    """Stop every server this module started (their data is lost)."""
    while _servers:
        _servers.pop().stop()
