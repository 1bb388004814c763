#!/usr/bin/env bash
# Prints a Python >= 3.12 interpreter (Django 6 needs it), or explains what is wrong.
# pyenv users get 3.13 from .python-version; otherwise python3.13 / python3.12 on PATH.
set -euo pipefail
cd "$(dirname "$0")/.."
for candidate in "$(command -v pyenv >/dev/null 2>&1 && pyenv which python3 2>/dev/null || true)" python3.13 python3.12 python3; do
  [ -n "$candidate" ] || continue
  if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 12))' 2>/dev/null; then
    command -v "$candidate"
    exit 0
  fi
done
echo "error: Python 3.12+ is required (Django 6). Install Python 3.13 (pyenv install 3.13 reads .python-version) and retry." >&2
exit 1
