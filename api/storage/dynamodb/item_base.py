"""The base of every record item: the key, the version and the id of the last write."""

from __future__ import annotations

from pynamodb.attributes import NumberAttribute, UnicodeAttribute
from pynamodb.models import Model


class Item(Model):
    pk = UnicodeAttribute(hash_key=True)
    v = NumberAttribute()
    w = UnicodeAttribute(null=True)  # write id of the commit that wrote it last
