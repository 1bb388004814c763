"""A dropped database connection (pg_terminate_backend, a PostgreSQL restart) costs at most
the requests in flight: the pool checks a connection before handing it out (issue 12, 5)."""

import pytest
from django.db import connection

from tests.conftest import client_for, require_service

pytestmark = pytest.mark.django_db(transaction=True)


def terminate_other_connections():
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                       "WHERE datname = current_database() AND pid <> pg_backend_pid()")
    connection.close()  # back to the pool: the pool now holds only dropped connections


def test_requests_after_the_database_dropped_every_connection_get_answers(player, run):
    require_service(connection.vendor == "postgresql", "PostgreSQL (DATABASE_URL)")
    client = client_for(player)
    assert client.get(f"/solo/{run.pk}/").status_code == 200
    for _ in range(3):
        terminate_other_connections()
        assert client.get(f"/solo/{run.pk}/").status_code == 200
        answer = client.post(f"/solo/{run.pk}/act/", {"cell": "2", "digit": "4"}, HTTP_HX_REQUEST="true")
        assert answer.status_code in (200, 409)
