from django import template

from arenas import fragments

register = template.Library()


@register.simple_tag
def arena_rows(lines, finished=False):
    """Table rows: the same builder as the table's push (arenas/fragments.py)."""
    return fragments.rows(lines, finished)


@register.simple_tag
def arena_around(lines, finished=False):
    """The viewer's place below the top, after a gap: the same builder as the push's."""
    return fragments.around(lines, finished)
