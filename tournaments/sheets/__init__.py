"""The result-sheet pipeline (RESULT_SHEET.md): a referee's workbook received, checked, previewed and imported
all or nothing, then a replay requested; the same service answers the referee's pages, the upload API and the
`import_results` command, and the tournament day publishes through it.

Modules
-------
services        receive, check against the federation's data, import; sheets kept or purged
preview         what an import would change: every rating change, before the referee confirms
template        the official workbook: blank, prefilled for a tournament, or built from a live day's data
annotate        the referee's own workbook with every issue marked on its cell
upload_limits   uploads per account and hour
forms, views, urls, api: the referee's pages and the upload API over those services
"""
