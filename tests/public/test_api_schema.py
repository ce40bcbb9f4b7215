"""Property-based tests of the read API against its own OpenAPI schema (schemathesis).

The schema is generated from the code (drf-spectacular) and the requests go to the WSGI application in-process,
inside the test's database transaction, so the factory data is there. For every operation, schemathesis
generates up to 20 requests from the schema and checks: no server error, and every response (2xx and the
documented 400/404 alike) conforms to the schema.
"""

from __future__ import annotations

import random

import pytest
import schemathesis
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from drf_spectacular.generators import SchemaGenerator
from hypothesis import HealthCheck, assume, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    positive_data_acceptance,
    response_schema_conformance,
    status_code_conformance,
)

from tests import factories
from tests.live.helpers import federation_players, live_tournament, play_round
from tournaments.live.rounds import round_pair

schema = schemathesis.openapi.from_dict(SchemaGenerator().get_schema(request=None, public=True))
schema.app = get_wsgi_application()
KNOWN_SYSTEMS = ("adlg",)  # the rating systems of the reference data (fixtures/rating_systems.json)


@pytest.fixture
def api_data(db):
    # As Django's test client does: a request must not close the test's connection at its end (PostgreSQL
    # would lose the test's transaction; SQLite's in-memory database ignores the close).
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    federation = factories.federation(6)
    factories.adjustment(federation.players[0], year=2024, before=1100, after=1050)
    factories.player("Excluded", "X", excluded=True)
    # A tournament run live, one round played and the next proposed (not public): the live endpoints' data.
    live = live_tournament(federation_players(7))
    play_round(live, 1, random.Random(4))
    round_pair(live)
    federation.live = live
    yield federation
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@schema.parametrize()
@settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
def test_api_conforms_to_its_schema(case, api_data):
    response = case.call()
    case.validate_response(response, checks=[not_a_server_error, status_code_conformance, content_type_conformance,
                                              response_schema_conformance])


@pytest.mark.parametrize("path", ["/api/live/", "/api/live/{id}/", "/api/live/{id}/rounds/{number}/"])
def test_the_live_endpoints_conform_with_a_tournament_running(path, api_data):
    """The generated IDs above rarely name the live tournament: here its real ID, and its published round."""
    from django.core.cache import cache

    cache.clear()  # the live endpoints' throttle counts through the cache
    params = {"id": api_data.live.pk, "number": 1}
    case = schema[path]["GET"].Case(path_parameters={k: v for k, v in params.items() if f"{{{k}}}" in path})
    response = case.call()
    assert response.status_code == 200
    case.validate_response(response, checks=[not_a_server_error, status_code_conformance, content_type_conformance,
                                             response_schema_conformance])


@schema.parametrize()
@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
def test_every_request_the_schema_calls_valid_is_accepted(case, api_data):
    """What the schema allows (a parameter's type, an integer's minimum and maximum, a text's length, its
    choices) the API answers, never 400: a client written from the schema is not refused (`?year=0` was). 404
    stays possible (an ID or a page that does not exist). Two refusals the schema cannot say are left out: a
    rating system's code that does not exist (the codes are data), and the championship's country and
    international together (OpenAPI has no "one or the other" for query parameters; their descriptions say it)."""
    query = case.query or {}
    assume(query.get("system") in (None, *KNOWN_SYSTEMS))
    assume(not ("country" in query and "international" in query))
    response = case.call()
    case.validate_response(response, checks=[positive_data_acceptance])
