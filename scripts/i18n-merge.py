#!/usr/bin/env python3
"""Merges the catalogue parts web/i18n/parts/<area>.<lang>.json into
web/i18n/<lang>.json (keys sorted). Used while issue 12 is built by several
people at once; each owns its areas' parts."""
import glob, json, os, sys
web = os.path.join(os.path.dirname(__file__), "..", "crates", "punct-server", "web", "i18n")
if len(sys.argv) == 3 and sys.argv[1] == "--missing":
    # Lists, area by area, the English keys that LANG's parts lack (or that
    # it has but English no longer has).
    lang = sys.argv[2]
    for part in sorted(glob.glob(os.path.join(web, "parts", "*.en.json"))):
        area = os.path.basename(part)[: -len(".en.json")]
        en = json.load(open(part, encoding="utf-8"))
        other_path = os.path.join(web, "parts", f"{area}.{lang}.json")
        other = json.load(open(other_path, encoding="utf-8")) if os.path.exists(other_path) else {}
        missing = [k for k in en if k not in other]
        extra = [k for k in other if k not in en]
        if missing or extra:
            print(f"{area}: {len(missing)} missing {missing[:50]}" + (f"; not in English: {extra}" if extra else ""))
    sys.exit(0)
for lang in ["en", "de", "ja", "sk"]:
    merged = {}
    for part in sorted(glob.glob(os.path.join(web, "parts", f"*.{lang}.json"))):
        try:
            data = json.load(open(part, encoding="utf-8"))
        except ValueError as e:
            sys.exit(f"{part}: {e}")
        for k, v in data.items():
            if k in merged:
                sys.exit(f"{part}: key {k} is already in another part")
            merged[k] = v
    tmp = os.path.join(web, f".{lang}.json.tmp{os.getpid()}")
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(dict(sorted(merged.items())), f, ensure_ascii=False, indent=1)
        f.write("\n")
    os.replace(tmp, os.path.join(web, f"{lang}.json"))
