"""A move's locked read and its write as two plain SQL statements.

Building the ORM query (select_for_update + get + save) cost more CPU per move than the
game itself (issue 15's profile). These two functions send the same SQL a model
instance would, with the fields' own converters and adapters, so the instance they
return and the row they write are the ones the ORM would give: they are a faster path
for the write paths (games/solo.py, games/cardoku/solo.py, games/domino/solo.py), not a
second way to store a game.
"""

from __future__ import annotations

from functools import cache

from django.db import connection
from django.db.models import Model

from stats.models import Profile


@cache
def _select(model: type[Model], related: str | None, related_fields: tuple[str, ...], by_token: bool,
            vendor: str) -> tuple[str, list, list]:
    """The SELECT (with its lock) of every column of `model` (plus `related_fields` of the
    `related` foreign key's row), and each column's converters, as the ORM compiler uses them."""
    qn = connection.ops.quote_name
    meta = model._meta
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
        joins += (f" JOIN {qn(Profile._meta.db_table)} p ON p.{qn(Profile._meta.pk.column)} = t.{qn(player.column)}")
        where = f"t.{qn(meta.pk.column)} = %s AND p.{qn(Profile._meta.get_field('token').column)} = %s"
    else:
        where = f"t.{qn(meta.pk.column)} = %s AND t.{qn(player.column)} = %s"
    sql = f"SELECT {', '.join(columns)} FROM {qn(meta.db_table)} t{joins} WHERE {where}"
    features = connection.features
    if features.has_select_for_update:  # SQLite: its IMMEDIATE transaction already holds the write lock
        sql += " FOR UPDATE OF t" if features.has_select_for_update_of else " FOR UPDATE"
    table = meta.db_table
    converters = []
    for field in fields + extra:
        col = field.get_col(table if field.model is model else field.model._meta.db_table)
        found = connection.ops.get_db_converters(col) + field.get_db_converters(connection)
        converters.append((found, col) if found else None)
    return sql, [f.attname for f in fields], converters


def locked(model: type[Model], pk: int, player, related: str | None = None,
           related_fields: tuple[str, ...] = ()) -> Model | None:
    """`model`'s row `pk` if it belongs to `player` (a Profile, or the token of the request's
    player cookie), locked for the rest of the transaction; None if not. With `related`, the
    instance's `related` object carries `related_fields` (its other fields load when read)."""
    if player is None or player == "":
        return None
    by_token = isinstance(player, str)
    sql, names, converters = _select(model, related, tuple(related_fields), by_token, connection.vendor)
    with connection.cursor() as cursor:
        cursor.execute(sql, [pk, player if by_token else player.pk])
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
        fk = model._meta.get_field(related)
        rel_model = fk.related_model
        rel_names = [rel_model._meta.pk.attname, *related_fields]
        rel = rel_model.from_db(connection.alias, rel_names, [getattr(instance, fk.attname), *values[n:]])
        fk.set_cached_value(instance, rel)
    return instance


def save_fields(instance: Model, names: list[str] | tuple[str, ...]) -> None:
    """One UPDATE of `names` (plus any auto_now field), as `instance.save(update_fields=names)`
    would write them."""
    meta = instance._meta
    qn = connection.ops.quote_name
    fields = [meta.get_field(name) for name in names]
    fields += [f for f in meta.concrete_fields if getattr(f, "auto_now", False) and f not in fields]
    sets = ", ".join(f"{qn(f.column)} = %s" for f in fields)
    params = [f.get_db_prep_save(f.pre_save(instance, False), connection) for f in fields]
    with connection.cursor() as cursor:
        cursor.execute(f"UPDATE {qn(meta.db_table)} SET {sets} WHERE {qn(meta.pk.column)} = %s",
                       [*params, instance.pk])
