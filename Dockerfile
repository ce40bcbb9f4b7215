# One image for web, worker and beat (docker-compose.yml chooses the command).
FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 DJANGO_SETTINGS_MODULE=adlg_site.settings.production
WORKDIR /app
# Dependencies first, so a code change does not reinstall them: the site's pinned versions (requirements/main.txt,
# `make lock`), no test tools. The code runs from /app, so the project itself is not installed.
COPY requirements/main.txt requirements/main.txt
RUN pip install --no-cache-dir -r requirements/main.txt
COPY . .
RUN SECRET_KEY=collectstatic-only-not-used-at-run-time-0123456789abcdef ALLOWED_HOSTS=build \
    python manage.py collectstatic --noinput \
    && useradd --create-home adlg && chown -R adlg /app
USER adlg
EXPOSE 8000
# gunicorn reads gunicorn.conf.py from /app: the bind address, workers and threads, timeouts, keep-alive.
CMD ["gunicorn", "adlg_site.wsgi:application"]
