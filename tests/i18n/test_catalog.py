"""The committed Dutch catalog is complete and current: every string the code marks is
translated, nothing stale is left, and the compiled .mo says what the .po says."""

import re

from tests.i18n.catalog import marked_strings, mo_catalog, po_entries

PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def test_every_marked_string_is_translated():
    catalog = {(e.get("msgctxt"), e["msgid"]): e for e in po_entries()}
    missing = [
        f"{where}: {msgid!r}"
        for (context, msgid), (_, where) in marked_strings().items()
        if (context, msgid) not in catalog
    ]
    assert not missing, "not in locale/nl/LC_MESSAGES/django.po (run `make messages`):\n" + "\n".join(missing)
    untranslated = [e["msgid"] for e in catalog.values() if not all(e["msgstr"].values())]
    assert not untranslated, f"translate these in the .po: {untranslated}"
    fuzzy = [e["msgid"] for e in catalog.values() if "fuzzy" in e.get("flags", [])]
    assert not fuzzy, f"check these fuzzy entries and drop the flag: {fuzzy}"


def test_the_catalog_has_no_stale_entries():
    marked = marked_strings()
    stale = [e["msgid"] for e in po_entries() if (e.get("msgctxt"), e["msgid"]) not in marked]
    assert not stale, f"no longer in the code (run `make messages`): {stale}"


def test_translations_keep_the_placeholders():
    for entry in po_entries():
        sources = [entry["msgid"]] + ([entry["msgid_plural"]] if "msgid_plural" in entry else [])
        allowed = set().union(*(PLACEHOLDER.findall(s) for s in sources))
        for msgstr in entry["msgstr"].values():
            assert set(PLACEHOLDER.findall(msgstr)) <= allowed, (entry["msgid"], msgstr)


def test_the_compiled_catalog_is_current():
    compiled = mo_catalog()
    for entry in po_entries():
        key = entry["msgid"] if "msgctxt" not in entry else f"{entry['msgctxt']}\x04{entry['msgid']}"
        if "msgid_plural" in entry:
            for n, msgstr in entry["msgstr"].items():
                assert compiled.get((key, n)) == msgstr, f"django.mo is stale (run `make messages`): {key!r}"
        else:
            assert compiled.get(key) == entry["msgstr"][0], f"django.mo is stale (run `make messages`): {key!r}"
    singular = {k if isinstance(k, str) else k[0] for k in compiled if k}
    assert len(singular) == len(po_entries()), "django.mo holds entries the .po no longer has"
