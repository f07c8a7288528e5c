"""The base of every record item: the key, the version and the id of the last write.

Attribute names in the table are short on purpose (the 400 KB item limit and the billed item size
count them); in Python each has its long name, and `attr_name` the stored one.
"""

from __future__ import annotations

from pynamodb.attributes import NumberAttribute, UnicodeAttribute
from pynamodb.models import Model


class Item(Model):
    key = UnicodeAttribute(hash_key=True, attr_name="pk")
    version = NumberAttribute(attr_name="v")
    # The write id of the commit that wrote it last (api/storage/dynamodb/writes.py).
    write_id = UnicodeAttribute(null=True, attr_name="w")
