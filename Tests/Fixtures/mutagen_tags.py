#!/usr/bin/env python3
"""Prints, as one JSON object, every tag mutagen reads in a file: {"version": ID3 version or null,
"tags": {key: value}}. ID3 frames are keyed by mutagen's HashKey (TXXX:MOOD, COMM::eng …), MP4 items by their
key, Vorbis comments by their name (mutagen gives it in lower case); text is a list of its strings, anything else (pictures,
numbers) its repr, so that it compares exactly. The tests of `audiostream tags -o` read files with it, as an independent reader."""
import json
import sys

import mutagen
from mutagen.id3 import ID3

path = sys.argv[1]
try:
    audio = mutagen.File(path)
    tags = audio.tags
except mutagen.MutagenError:
    # ADTS behind an ID3 tag, which mutagen's MP3 reader does not sync to: its tag alone.
    tags = ID3(path)
version = None
result = {}
if isinstance(tags, ID3):
    version = tags.version[1]
    for key, frame in tags.items():
        text = getattr(frame, "text", None)
        result[key] = [str(item) for item in text] if text is not None and key[:4] != "APIC" else repr(frame)
elif tags is not None:
    for key, value in tags.items():
        if isinstance(value, list) and all(isinstance(item, str) for item in value):
            result[key] = value
        else:
            result[key] = repr(value)
print(json.dumps({"version": version, "tags": result}, ensure_ascii=False, sort_keys=True))
