# One image for web, worker and beat (docker-compose.yml chooses the command).
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 DJANGO_SETTINGS_MODULE=adlg_site.settings.production
WORKDIR /app
# Dependencies first, so a code change does not reinstall them.
COPY pyproject.toml ./
RUN pip install --no-cache-dir .
COPY . .
RUN SECRET_KEY=collectstatic-only-not-used-at-run-time-0123456789abcdef ALLOWED_HOSTS=build \
    python manage.py collectstatic --noinput \
    && useradd --create-home adlg && chown -R adlg /app
USER adlg
EXPOSE 8000
# gunicorn reads gunicorn.conf.py from /app: the bind address, workers and threads, timeouts, keep-alive.
CMD ["gunicorn", "adlg_site.wsgi:application"]
