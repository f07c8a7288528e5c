"""`wordle-tournament db create`: the DynamoDB table from its one definition."""

from __future__ import annotations

import argparse
import json
from typing import Any


def register(commands: Any) -> None:
    db = commands.add_parser("db", help="DynamoDB table tools")
    actions = db.add_subparsers(dest="db", required=True, metavar="ACTION")
    create = actions.add_parser(
        "create",
        help="create the table (WT_TABLE, DYNAMODB_ENDPOINT, AWS_REGION) if it does not exist",
    )
    create.set_defaults(handler=create_command)
    show = actions.add_parser("definition", help="print the table definition as JSON")
    show.set_defaults(handler=definition_command)


def create_command(args: argparse.Namespace) -> int:
    from api.config import Settings
    from api.storage.dynamodb.repository import create_table

    settings = Settings.from_env()
    where = settings.dynamodb_endpoint or f"AWS {settings.region}"
    created = create_table(settings)
    state = "created" if created else "already exists"
    print(f"table {settings.table_name} ({where}): {state}, active")
    return 0


def definition_command(args: argparse.Namespace) -> int:
    from api.config import Settings
    from api.storage.dynamodb.schema import table_definition, ttl_specification

    settings = Settings.from_env()
    definition = {**table_definition(settings.table_name), "TimeToLive": ttl_specification()}
    print(json.dumps(definition, indent=2))
    return 0
