#!/usr/bin/env python3
"""Merges the catalogue parts web/i18n/parts/<area>.<lang>.json into
web/i18n/<lang>.json (keys sorted). Used while issue 12 is built by several
people at once; each owns its areas' parts."""
import glob, json, os, sys
web = os.path.join(os.path.dirname(__file__), "..", "crates", "punct-server", "web", "i18n")
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
