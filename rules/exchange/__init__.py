"""The tournament exchange format (``adlg-tournament/1``, docs/exchange.md): one tournament's result sheet as a
JSON document, checked by a JSON Schema (docs/exchange/tournament-v1.schema.json), for another federation's site
or a referee's other tool to send and to receive.

Modules: reader (`read_exchange`: bytes to what rules.sheet's reader gives, through the sheet's own readers),
writer (`exchange_document`: the same facts to a document), layout (the document as the sheet's three sheets, and
the report's cells as JSON paths), upload (`read_upload`: a result sheet or a document, told apart by content).
"""

from rules.exchange.layout import json_path
from rules.exchange.reader import EXCHANGE_FORMAT, SCHEMA_PATH, read_exchange, schema
from rules.exchange.upload import file_kind, read_upload
from rules.exchange.writer import exchange_document

__all__ = ["EXCHANGE_FORMAT", "SCHEMA_PATH", "exchange_document", "file_kind", "json_path", "read_exchange",
           "read_upload", "schema"]
