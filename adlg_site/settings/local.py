"""Developer machine: the embedded default (SQLite, tasks in-process) unless the environment says otherwise."""

from adlg_site.env import env_bool

from .base import *  # noqa: F403
from .base import SECRET_KEY as _SECRET_KEY

DEBUG = env_bool("DEBUG", True)
# A fixed key is fine for a laptop; production refuses to start without its own.
SECRET_KEY = _SECRET_KEY or "local-development-only-not-secret"
