"""The one way a move reads and writes its game row: `write`.

A move is one statement: an autocommit `UPDATE ... WHERE id = %s AND revision = %s`
(compare and set) of the columns it changed, applied to the copy of the row this process
kept after the game's last write. With no kept copy (another process, a restart, the first
move) the row is read first with a plain SELECT, without a lock or a transaction. Either
way, if the row changed meanwhile (another tab, another process: the UPDATE finds no row
of that revision) the move is applied again to the row read under a lock, as every move
was before (issue 15: BEGIN, SELECT ... FOR UPDATE, UPDATE and COMMIT were four round
trips and most of a move's time on PostgreSQL). The commit of that one UPDATE still waits
for the WAL flush: a move is durable when it is answered.

The statements are plain SQL with the fields' own converters and adapters, so the
instance `write` hands to the change is the one the ORM would give (the ORM's query
building cost more CPU per move than the game itself).
"""

from __future__ import annotations

import copy
import threading
from collections import OrderedDict
from collections.abc import Callable
from functools import cache
from typing import Any

from django.db import connection, transaction

from games.models import Revised
from players.middleware import split_player_token
from players.models import Profile

KEEP = 1000  # game rows kept per process (a few KB each), the least recently played dropped first
_kept: OrderedDict[tuple[type[Revised], int], tuple[str, Revised]] = OrderedDict()
_kept_lock = threading.Lock()  # views run in threads


@cache
def _select(
    model: type[Revised], related: str | None, related_fields: tuple[str, ...], by_token: bool, lock: bool, vendor: str
) -> tuple[str, list, list]:
    """The SELECT (locked if `lock`) of every column of `model` (plus `related_fields` of the
    `related` foreign key's row), and each column's converters, as the ORM compiler uses them."""
    qn = connection.ops.quote_name
    meta: Any = model._meta  # the ORM's field API (the stubs make every column and relation optional)
    fields = list(meta.concrete_fields)
    columns = [f"t.{qn(f.column)}" for f in fields]
    joins = ""
    extra = []
    if related:
        fk = meta.get_field(related)
        rel_model = fk.related_model
        extra = [rel_model._meta.get_field(name) for name in related_fields]
        columns += [f"r.{qn(f.column)}" for f in extra]
        joins += f" JOIN {qn(rel_model._meta.db_table)} r ON r.{qn(rel_model._meta.pk.column)} = t.{qn(fk.column)}"
    player = meta.get_field("player")
    if by_token:  # ownership joins the read: no query for the profile first
        profile: Any = Profile._meta
        joins += f" JOIN {qn(profile.db_table)} p ON p.{qn(profile.pk.column)} = t.{qn(player.column)}"
        account = qn(profile.get_field("account").column)
        # a linked profile's game only with its account's session (players.middleware.player_token)
        where = (
            f"t.{qn(meta.pk.column)} = %s AND p.{qn(profile.get_field('token').column)} = %s"
            f" AND (p.{account} IS NULL OR p.{account} = %s)"
        )
    else:
        where = f"t.{qn(meta.pk.column)} = %s AND t.{qn(player.column)} = %s"
    sql = f"SELECT {', '.join(columns)} FROM {qn(meta.db_table)} t{joins} WHERE {where}"
    features = connection.features
    if lock and features.has_select_for_update:  # SQLite: its IMMEDIATE transaction already holds the write lock
        sql += " FOR UPDATE OF t" if features.has_select_for_update_of else " FOR UPDATE"
    table = meta.db_table
    converters = []
    for field in fields + extra:
        col = field.get_col(table if field.model is model else field.model._meta.db_table)
        found = connection.ops.get_db_converters(col) + field.get_db_converters(connection)
        converters.append((found, col) if found else None)
    return sql, [f.attname for f in fields], converters


def read[R: Revised](
    model: type[R],
    pk: int,
    player,
    related: str | None = None,
    related_fields: tuple[str, ...] = (),
    lock: bool = False,
) -> R | None:
    """`model`'s row `pk` if it belongs to `player` (a Profile, or players.middleware.player_token:
    the cookie's token, with the session's account), locked for the rest of the transaction if `lock`; None if not. With
    `related`, the instance's `related` object carries `related_fields` (its other fields
    load when read)."""
    if player is None or player == "":
        return None
    by_token = isinstance(player, str)
    sql, names, converters = _select(model, related, tuple(related_fields), by_token, lock, connection.vendor)
    with connection.cursor() as cursor:
        cursor.execute(sql, [pk, *split_player_token(player)] if by_token else [pk, player.pk])
        row = cursor.fetchone()
    if row is None:
        return None
    values = list(row)
    for i, conv in enumerate(converters):
        if conv is not None:
            for converter in conv[0]:
                values[i] = converter(values[i], conv[1], connection)
    n = len(names)
    instance = model.from_db(connection.alias, names, values[:n])
    if related:
        fk: Any = model._meta.get_field(related)  # a foreign key (the stubs allow any relation)
        rel_model = fk.related_model
        rel_names = [rel_model._meta.pk.attname, *related_fields]
        rel = rel_model.from_db(connection.alias, rel_names, [getattr(instance, fk.attname), *values[n:]])
        fk.set_cached_value(instance, rel)
    return instance


def update(instance: Revised, names: list[str] | tuple[str, ...]) -> bool:
    """One UPDATE of `names` (plus any auto_now field, with the values `save(update_fields=names)`
    would write) and the revision, if the row is still at the instance's revision. False if not
    (nothing was written)."""
    meta: Any = instance._meta  # as in _select
    qn = connection.ops.quote_name
    # Each column once (dict.fromkeys keeps the order): PostgreSQL refuses a column assigned twice.
    fields = [meta.get_field(name) for name in dict.fromkeys(names)]
    fields += [f for f in meta.concrete_fields if getattr(f, "auto_now", False) and f not in fields]
    sets = ", ".join(f"{qn(f.column)} = %s" for f in fields)
    params = [f.get_db_prep_save(f.pre_save(instance, False), connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {qn(meta.db_table)} SET {sets}, {qn('revision')} = %s "
            f"WHERE {qn(meta.pk.column)} = %s AND {qn('revision')} = %s",
            [*params, instance.revision + 1, instance.pk, instance.revision],
        )
        if cursor.rowcount != 1:
            return False
    instance.revision += 1
    return True


def write[R: Revised, T](
    model: type[R],
    pk: int,
    player,
    change: Callable[[R], tuple[T, list[str]]],
    missing: Exception,
    related: str | None = None,
    related_fields: tuple[str, ...] = (),
) -> T:
    """Apply `change` to the player's game row `pk` and write the fields it names; return what
    it returned. `change(instance)` changes the instance and returns (result, field names), or
    raises a refusal (nothing is written then). Raises `missing` if the row is not the player's.
    `player` and the related read: as `read`."""
    token = player if isinstance(player, str) else getattr(player, "token", None)
    kept = _take(model, pk, token)
    if kept is not None:
        try:
            result, names = change(kept)
        except Exception:  # noqa: BLE001 - decided on a copy that may be behind the row: ask the row
            pass
        else:
            if update(kept, names):
                return _keep(kept, token, result)
    instance = read(model, pk, player, related, related_fields)
    if instance is None:
        raise missing
    result, names = change(instance)
    if update(instance, names):
        return _keep(instance, token, result)
    with transaction.atomic():  # written meanwhile: apply the move to the row as it is now, locked
        instance = read(model, pk, player, related, related_fields, lock=True)
        if instance is None:
            raise missing
        result, names = change(instance)
        if not update(instance, names):  # the row is locked: only a write that skipped `revision`
            raise RuntimeError(f"{model.__name__} {pk} changed under its lock")
        return _keep(instance, token, result)


def _take[R: Revised](model: type[R], pk: int, token: str | None) -> R | None:
    """This process's copy of the row, if the player whose token it is owns it (tokens never
    change; a signed-in player's carries the session's account, so a copy of the cookie without
    that session never finds the account's row here), taken out so no other thread changes it
    meanwhile."""
    with _kept_lock:
        entry = _kept.get((model, pk))
        if entry is None or not token or entry[0] != token:
            return None
        del _kept[(model, pk)]
    kept = entry[1]
    return kept if isinstance(kept, model) else None  # always: the key is its model


def _keep[T](instance: Revised, token: str | None, result: T) -> T:
    """Keep a copy of the row just written, once committed (a rolled-back write is never kept);
    the caller goes on with `instance`."""
    if token:
        clone = copy.copy(instance)

        def put():
            with _kept_lock:
                _kept[(type(clone), clone.pk)] = (token, clone)
                _kept.move_to_end((type(clone), clone.pk))
                while len(_kept) > KEEP:
                    _kept.popitem(last=False)

        transaction.on_commit(put)
    return result


def forget() -> None:
    """Drop every kept row (tests)."""
    with _kept_lock:
        _kept.clear()
