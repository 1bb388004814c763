#!/usr/bin/env python
import os
import sys


def main():
    if sys.version_info < (3, 12):  # noqa: UP036 - this guard is for a Python older than the minimum
        sys.exit(
            f"Python {sys.version.split()[0]} is too old: Django 6 needs 3.12+. "
            "Use the .venv made by `make run` (pyenv reads .python-version = 3.13)."
        )
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)


if __name__ == "__main__":
    main()
