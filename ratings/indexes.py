"""Index types the derived tables need beyond Django's portable B-tree."""

from __future__ import annotations

from django.db import models


class BlockRangeIndex(models.Index):
    """A BRIN index on PostgreSQL (a B-tree elsewhere), for columns that grow with the table's physical order.

    The history is written in date order, so a range of dates is a range of blocks: a BRIN index (the least
    and greatest value per range of blocks) finds a date's or a tail's events reading a few blocks more than a
    B-tree would, and costs almost nothing to build, where a full replay built the B-tree over two million
    rows in over a second of the writer's critical path. It cannot give an order (no "last event" through it).
    """

    def create_sql(self, model, schema_editor, using="", **kwargs):
        if schema_editor.connection.vendor == "postgresql":
            using = " USING brin"
        return super().create_sql(model, schema_editor, using=using, **kwargs)
