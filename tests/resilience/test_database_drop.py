"""A dropped database connection (pg_terminate_backend, a PostgreSQL restart) costs at most
the requests in flight: the pool checks a connection before handing it out (issue 12, 5)."""

import pytest
from django.db import connection

from tests.conftest import client_for, require_service

pytestmark = pytest.mark.django_db(transaction=True)


def terminate_other_connections():
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
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


def test_a_pool_of_dropped_connections_is_replaced_at_once(player, run):
    """psycopg_pool finds dropped connections one getconn at a time and sleeps 1, 2, 4, 8 s
    between them: with four dropped ones the next query waited 13.7 s (every room socket of
    the process behind it). The check replaces every idle one as soon as it finds one."""
    import time

    import psycopg

    require_service(connection.vendor == "postgresql", "PostgreSQL (DATABASE_URL)")
    pool = connection.pool
    borrowed = [pool.getconn() for _ in range(4)]
    for conn in borrowed:
        pool.putconn(conn)
    connection.close()
    params = connection.settings_dict
    with psycopg.connect(
        dbname=params["NAME"],
        user=params.get("USER") or None,
        host=params.get("HOST") or None,
        port=params.get("PORT") or None,
        autocommit=True,
    ) as admin:
        admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )
    started = time.monotonic()
    client = client_for(player)
    assert client.get(f"/solo/{run.pk}/").status_code == 200
    assert time.monotonic() - started < 1.0
