"""gunicorn's settings, read from the working directory (gunicorn's default): the compose file's web service and
the Dockerfile start gunicorn there with nothing else than the application; a command-line option overrides one.

A slow client cannot hold a worker for long:
- threads (gthread): a connection occupies one thread of a worker, not the whole worker; a client trickling its
  request holds one of workers x threads (24), and idle keep-alive connections wait in the worker's poller, not
  in a thread, and are closed after `keepalive` seconds;
- `timeout`: a worker silent for that long (a request stuck in a thread takes the whole worker with it) is
  killed and replaced; `graceful_timeout` bounds a restart the same way;
- the request line and headers are bounded (gunicorn answers 400 beyond them) and the body by Django
  (DATA_UPLOAD_MAX_MEMORY_SIZE, the sheet's 5 MB).
gunicorn cannot time out a client that sends its request slowly but steadily: in front of it, the reverse proxy
that terminates TLS (TRUSTED_PROXY_HEADER) buffers requests, and only its complete requests reach gunicorn.
"""

bind = "0.0.0.0:8000"
workers = 3
worker_class = "gthread"
threads = 8
timeout = 30
graceful_timeout = 30
keepalive = 5
limit_request_line = 4094
limit_request_fields = 60
limit_request_field_size = 8190
# A private link's or a claim token's secret is written "…" in gunicorn's error and access logs
# (adlg_site.log_filters), as in Django's.
logger_class = "adlg_site.log_filters.GunicornLogger"


def post_worker_init(worker):
    """Once the site is loaded in a worker, what it loaded (Django, the site's modules, the URLs, the templates'
    compiled forms) is left out of the garbage collector's full passes: they ran every few requests of a referee's
    big page and walked every object of the process, 130 ms each; with the loaded objects set aside, about 50 ms
    (bench/README.md, the referee's pages at round 6 of a 128-player pool)."""
    import gc

    gc.freeze()
