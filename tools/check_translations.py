"""Fail when a user-facing string is missing from, or untranslated in, the German or Danish catalogue.

Runs `makemessages` against the current code (so new strings are found), reads the
result, and puts the committed catalogues back as they were: the check never edits them.
"""

import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LANGS = ("de", "da")


def main() -> int:
    sys.path.insert(0, str(ROOT))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django
    import polib
    from django.core.management import call_command

    django.setup()
    paths = {lang: ROOT / "locale" / lang / "LC_MESSAGES" / "django.po" for lang in LANGS}
    saved = {lang: path.read_bytes() if path.exists() else None for lang, path in paths.items()}
    problems = []
    try:
        os.chdir(ROOT)
        call_command(
            "makemessages", locale=list(LANGS), no_location=True, no_obsolete=True,
            ignore_patterns=[".venv", "tests", "bench"], verbosity=0,
        )
        for lang, path in paths.items():
            for entry in polib.pofile(str(path)):
                if entry.obsolete:
                    continue
                if entry.fuzzy or not entry.translated():
                    problems.append(f"{lang}: {'fuzzy' if entry.fuzzy else 'untranslated'}: {entry.msgid!r}")
    finally:
        for lang, content in saved.items():
            if content is None:
                paths[lang].unlink(missing_ok=True)
            else:
                paths[lang].write_bytes(content)
    if problems:
        print("Translation catalogues are incomplete (run `make makemessages` and translate):")
        print("\n".join(problems))
        return 1
    print(f"Translations complete for {', '.join(LANGS)}.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
