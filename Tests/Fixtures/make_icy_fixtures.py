#!/usr/bin/env python3
"""Makes the ICY (SHOUTcast/Icecast in-band metadata) fixtures and their expected values.

    python3 Tests/Fixtures/make_icy_fixtures.py      (from anywhere; paths are found from this file)

Writes Tests/Fixtures/icy/NAME.body and Tests/Fixtures/icy/NAME.json. Python 3 standard library only;
deterministic (same input files, same bytes out). make-fixtures.sh calls it last, after it has remade the
audio it reads (Tests/Fixtures/l3-cbr128-joint.mp3, demo/demo.mp3 and, from make_codec_fixtures.py,
Tests/Fixtures/adts-lc-44k-stereo.aac).

A body is what a server sends after it got `Icy-MetaData: 1` and answered `icy-metaint: METAINT`:
METAINT audio bytes, one length byte L, L*16 bytes of metadata text (NUL-padded at the end), METAINT audio
bytes, a length byte, ... L = 0 is just the zero byte. A block follows every full METAINT audio bytes; the
body ends right after the last audio byte, so the last audio segment may be short and has no block after it.
Block n (counted from 1) comes after n*METAINT audio bytes: its `audioOffset`.

The expected values are ground truth by construction, never parsed back from the output: each non-empty
block is built here from a list of (key, value) fields, and `streamTitle` / `streamUrl` in the JSON are those
values as written in the list. A small de-interleaver at the end (independent of the writer) strips every
body back and checks that the audio equals the source file and the blocks equal the JSON.

NAME.json:
  source      the audio file, relative to the repository root
  metaint     the metadata interval
  audioBytes  length of the audio; audioMD5: MD5 (hex) of the audio bytes
  blockCount  number of length bytes in the body (empty blocks included)
  metadata    every NON-empty block, in order:
    audioOffset  audio bytes before the block (block number * metaint)
    blockLength  L (the block holds L*16 bytes)
    textBytes    bytes of text before the NUL padding (= L*16 when the block has no padding)
    encoding     "utf-8" if those bytes are valid UTF-8, else "cp1252"
    raw          those bytes decoded with that encoding
    streamTitle  the StreamTitle value written, or null when the block has no StreamTitle
    streamUrl    the StreamUrl value written, or null when the block has no StreamUrl
    case         what the block is there to test (free text)
  blocksInsideADTSHeaders  (ADTS sources only) the blocks that fall inside a 7-byte ADTS frame header:
               block number, audioOffset, and how many header bytes come before the block
"""

import codecs
import hashlib
import json
import os

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
OUT = os.path.join(ROOT, "Tests", "Fixtures", "icy")

# Bytes Python's cp1252 codec does not map: a block must not contain them.
CP1252_UNDEFINED = {0x81, 0x8D, 0x8F, 0x90, 0x9D}

# Goldberg Variations movement titles: a long, real title with apostrophes, semicolons and a non-ASCII letter.
GOLDBERG = [
    "Aria", "Var. 1 a 1 Clav.", "Var. 2 a 1 Clav.", "Var. 3 Canone all'Unisuono a 1 Clav.", "Var. 4 a 1 Clav.",
    "Var. 5 a 1 ô vero 2 Clav.", "Var. 6 Canone alla Seconda a 1 Clav.",
    "Var. 7 a 1 ô vero 2 Clav. al tempo di Giga", "Var. 8 a 2 Clav.", "Var. 9 Canone alla Terza a 1 Clav.",
    "Var. 10 Fughetta a 1 Clav.", "Var. 11 a 2 Clav.", "Var. 12 Canone alla Quarta", "Var. 13 a 2 Clav.",
    "Var. 14 a 2 Clav.", "Var. 15 Canone alla Quinta a 1 Clav. Andante", "Var. 16 Ouverture a 1 Clav.",
    "Var. 17 a 2 Clav.", "Var. 18 Canone alla Sesta a 1 Clav.", "Var. 19 a 1 Clav.", "Var. 20 a 2 Clav.",
    "Var. 21 Canone alla Settima", "Var. 22 a 1 Clav. alla breve", "Var. 23 a 2 Clav.",
    "Var. 24 Canone all'Ottava a 1 Clav.", "Var. 25 a 2 Clav. Adagio", "Var. 26 a 2 Clav.",
    "Var. 27 Canone alla Nona a 2 Clav.", "Var. 28 a 2 Clav.", "Var. 29 a 1 ô vero 2 Clav.",
    "Var. 30 a 1 Clav. Quodlibet", "Aria da capo",
]


def long_title(performers, url):
    """A title that makes `StreamTitle='...';StreamUrl='URL';` fill a 255-block (4065..4080 bytes, padded)."""
    budget = 255 * 16 - 4 - len(f"StreamTitle='';StreamUrl='{url}';".encode())  # leave a few NULs of padding
    parts = []
    for performer in performers:
        parts.append(f"J. S. Bach – Goldberg-Variationen BWV 988 ({performer}): " + "; ".join(GOLDBERG))
    title = " / ".join(parts)
    while len(title.encode()) > budget:
        title = title[:-1]
    title = title.rstrip(" ;/:,.'")  # end on a letter or digit, not on punctuation or a quote
    assert len(f"StreamTitle='{title}';StreamUrl='{url}';".encode()) > 254 * 16
    return title


def entry(block, case, fields, encoding="utf-8", semicolon=True, fit=None):
    """One non-empty block: block number (from 1), fields [(key, value)], how the text is encoded, whether the
    last field is followed by ';', and fit = "exact" (text fills L*16 with no NULs) or "max" (L = 255)."""
    return {"block": block, "case": case, "fields": fields, "encoding": encoding, "semicolon": semicolon,
            "fit": fit}


GOLDBERG_URL_64 = "http://example.com/goldberg"
GOLDBERG_URL_16000 = "http://example.com/bach/bwv988?disc=1&track=1"

BODIES = [
    {
        "name": "icy-metaint64",
        "source": "Tests/Fixtures/l3-cbr128-joint.mp3",
        "metaint": 64,
        "entries": [
            entry(1, "first block: plain ASCII title and StreamUrl",
                  [("StreamTitle", "Daft Punk - Around the World"),
                   ("StreamUrl", "http://example.com/nowplaying?id=42")]),
            entry(20, "UTF-8 title with Latin accents and an en dash; StreamUrl present but empty",
                  [("StreamTitle", "Sigur Rós – Hoppípolla"), ("StreamUrl", "")]),
            entry(45, "UTF-8 title with CJK and an emoji (4-byte UTF-8); no StreamUrl",
                  [("StreamTitle", "坂本龍一 – 戦場のメリークリスマス 🎹")]),
            entry(70, "Windows-1252 title (ö F6, ó F3, en dash 96): not valid UTF-8",
                  [("StreamTitle", "Björk – Jóga"), ("StreamUrl", "http://example.com/")], encoding="cp1252"),
            entry(71, "Windows-1252 title with curly quotes 93/94 and the euro sign 80: not valid UTF-8",
                  [("StreamTitle", "Dire Straits – “Money for Nothing” (5€ Edit)")], encoding="cp1252"),
            entry(72, "apostrophes and a semicolon in the title, but never ' then ; together",
                  [("StreamTitle", "Guns N' Roses - Don't Cry; Live"),
                   ("StreamUrl", "http://example.com/gnr")]),
            entry(100, "title holds ' followed by ; (twice, then a space) and ends with ', so the text has '';",
                  [("StreamTitle", "Journey - Lovin'; Touchin'; Squeezin'")]),
            entry(130, "title holds '; followed by a letter (synthetic), then a StreamUrl",
                  [("StreamTitle", "Suzanne Vega - Tom';s Diner"), ("StreamUrl", "http://example.com/vega")]),
            entry(150, "empty title: StreamTitle=''; (title cleared)", [("StreamTitle", "")]),
            entry(151, "StreamTitle only, no trailing semicolon", [("StreamTitle", "Only Title")],
                  semicolon=False),
            entry(180, "StreamUrl only, no StreamTitle", [("StreamUrl", "http://example.com/station")]),
            entry(200, "text fills L*16 exactly: no NUL padding",
                  [("StreamTitle", "Air - Sexy Boy"), ("StreamUrl", "http://example.com/air")], fit="exact"),
            entry(230, "maximum block: L = 255 (4080 bytes), long UTF-8 title with ' and ;",
                  [("StreamTitle", long_title(["Glenn Gould, 1955", "Glenn Gould, 1981", "Angela Hewitt",
                                               "Murray Perahia", "Wanda Landowska"], GOLDBERG_URL_64)),
                   ("StreamUrl", GOLDBERG_URL_64)], fit="max"),
            entry(231, "extra keys after StreamUrl (ad-insertion style)",
                  [("StreamTitle", "Advertisement"), ("StreamUrl", ""), ("adw_ad", "true"),
                   ("durationMilliseconds", "15000"), ("adId", "4711"), ("insertionType", "midroll")]),
            entry(267, "last block (after it only 47 audio bytes, no block)",
                  [("StreamTitle", "Daft Punk - One More Time"), ("StreamUrl", "http://example.com/nowplaying")]),
        ],
    },
    {
        "name": "icy-metaint16000",
        "source": "demo/demo.mp3",
        "metaint": 16000,
        "entries": [
            entry(1, "first block: plain ASCII title and StreamUrl",
                  [("StreamTitle", "audiostream demo - Arpeggios"),
                   ("StreamUrl", "http://example.com/demo")]),
            entry(4, "UTF-8 title with accents and an en dash",
                  [("StreamTitle", "Édith Piaf – Non, je ne regrette rien"), ("StreamUrl", "")]),
            entry(7, "Windows-1252 title with an apostrophe (é E9, en dash 96): not valid UTF-8",
                  [("StreamTitle", "Sinéad O'Connor – Nothing Compares 2 U"),
                   ("StreamUrl", "http://example.com/")], encoding="cp1252"),
            entry(10, "maximum block: L = 255 (4080 bytes), long UTF-8 title with ' and ;",
                  [("StreamTitle", long_title(["Glenn Gould, 1981", "Rosalyn Tureck", "Igor Levit",
                                               "Beatrice Rana", "Lang Lang"], GOLDBERG_URL_16000)),
                   ("StreamUrl", GOLDBERG_URL_16000)], fit="max"),
            entry(13, "= inside the title",
                  [("StreamTitle", "Big Audio Dynamite - E=MC2"), ("StreamUrl", "")]),
            entry(16, "text fills L*16 exactly: no NUL padding, UTF-8",
                  [("StreamTitle", "Röyksopp – Eple"), ("StreamUrl", "http://example.com")], fit="exact"),
            entry(19, "last block, title and url cleared (after it 4321 audio bytes, no block)",
                  [("StreamTitle", ""), ("StreamUrl", "")]),
        ],
    },
    {
        # An AAC station: ADTS audio (made by make_codec_fixtures.py). metaint 1815 puts blocks 1, 2 and 16
        # inside ADTS headers (after 3, 4 and 6 of their 7 bytes), so a reader must join a header across a block.
        "name": "icy-aac-metaint1815",
        "source": "Tests/Fixtures/adts-lc-44k-stereo.aac",
        "metaint": 1815,
        "adtsHeaderSplits": [(1, 3), (2, 4), (16, 6)],
        "entries": [
            entry(1, "first block, inside an ADTS header (3 of its 7 bytes before it): title and StreamUrl",
                  [("StreamTitle", "Massive Attack - Teardrop"), ("StreamUrl", "http://example.com/aac")]),
            entry(2, "the next block too, also inside an ADTS header (4 bytes before it): UTF-8 title",
                  [("StreamTitle", "Mø – Final Song"), ("StreamUrl", "")]),
            entry(6, "Windows-1252 title (é E9, en dash 96): not valid UTF-8",
                  [("StreamTitle", "Café del Mar – Sunset"), ("StreamUrl", "http://example.com/")],
                  encoding="cp1252"),
            entry(9, "extra keys after StreamUrl (ad-insertion style)",
                  [("StreamTitle", "Advertisement"), ("StreamUrl", ""), ("adw_ad", "true"),
                   ("durationMilliseconds", "5000")]),
            entry(16, "inside an ADTS header (6 bytes before it): empty title", [("StreamTitle", "")]),
            entry(18, "last block (after it only 272 audio bytes, no block)",
                  [("StreamTitle", "Portishead - Roads"), ("StreamUrl", "http://example.com/aac")]),
        ],
    },
]


def block_text(e):
    text = ";".join(f"{key}='{value}'" for key, value in e["fields"]) + (";" if e["semicolon"] else "")
    data = codecs.encode(text, e["encoding"])
    assert 0 < len(data) <= 255 * 16, (e["case"], len(data))
    assert 0 not in data, e["case"]
    if e["encoding"] == "cp1252":
        assert not CP1252_UNDEFINED & set(data), e["case"]
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:
            pass
        else:
            raise AssertionError(f"cp1252 text is valid UTF-8, so a reader would take it as UTF-8: {e['case']}")
    length = -(-len(data) // 16)
    if e["fit"] == "exact":
        assert len(data) == length * 16, (e["case"], len(data))
    elif e["fit"] == "max":
        assert length == 255 and len(data) < 255 * 16, (e["case"], len(data))
    else:
        assert len(data) < length * 16, f"{e['case']}: fills its block exactly but fit is not 'exact'"
    return text, data, length


def decode_raw(data):
    """The reader's rule: UTF-8 if valid, else Windows-1252."""
    try:
        return data.decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        return data.decode("cp1252"), "cp1252"


def make(body):
    with open(os.path.join(ROOT, body["source"]), "rb") as f:
        audio = f.read()
    metaint = body["metaint"]
    block_count = len(audio) // metaint  # one block after each full metaint; none after a short tail
    assert len(audio) % metaint != 0, "audio length a multiple of metaint: would a block end the body?"
    entries = {e["block"]: e for e in body["entries"]}
    assert len(entries) == len(body["entries"]), "two entries for one block"
    assert min(entries) == 1 and max(entries) <= block_count, (min(entries), max(entries), block_count)
    assert len(entries) * 2 < block_count, "most blocks must be empty"

    out = bytearray()
    metadata = []
    for n in range(1, block_count + 1):
        out += audio[(n - 1) * metaint:n * metaint]
        e = entries.get(n)
        if e is None:
            out.append(0)
            continue
        text, data, length = block_text(e)
        out.append(length)
        out += data + b"\0" * (length * 16 - len(data))
        raw, encoding = decode_raw(data)
        assert encoding == e["encoding"] and raw == text, e["case"]
        fields = dict(e["fields"])
        metadata.append({
            "audioOffset": n * metaint,
            "blockLength": length,
            "textBytes": len(data),
            "encoding": encoding,
            "raw": raw,
            "streamTitle": fields.get("StreamTitle"),
            "streamUrl": fields.get("StreamUrl"),
            "case": e["case"],
        })
    out += audio[block_count * metaint:]
    splits = None
    if "adtsHeaderSplits" in body:
        splits = adts_header_splits(audio, metaint, block_count)
        assert splits == body["adtsHeaderSplits"], splits
    expected = {
        "source": body["source"],
        "metaint": metaint,
        "audioBytes": len(audio),
        "audioMD5": hashlib.md5(audio).hexdigest(),
        "blockCount": block_count,
        "metadata": metadata,
    }
    if splits is not None:
        expected["blocksInsideADTSHeaders"] = [{"block": n, "audioOffset": n * metaint, "headerBytesBefore": k}
                                              for n, k in splits]
    return bytes(out), expected


def adts_header_splits(audio, metaint, block_count):
    """[(block number, header bytes before it)] for the blocks that fall inside a 7-byte ADTS header: the frames
    are walked by their aac_frame_length (13 bits from bit 30 of the header, ISO/IEC 14496-3 1.A.2.2)."""
    starts, p = [], 0
    while p + 7 <= len(audio):
        assert audio[p] == 0xFF and audio[p + 1] & 0xF6 == 0xF0, f"no ADTS header at {p}"
        starts.append(p)
        p += ((audio[p + 3] & 3) << 11) | (audio[p + 4] << 3) | (audio[p + 5] >> 5)
    assert p == len(audio)
    return [(n, n * metaint - q) for n in range(1, block_count + 1) for q in starts if q < n * metaint < q + 7]


def deinterleave(body, metaint):
    """Independent reader: returns (audio, [(audioOffset, L, padded block bytes)] for non-empty blocks)."""
    audio = bytearray()
    blocks = []
    count = 0
    pos = 0
    while pos < len(body):
        chunk = body[pos:pos + metaint]
        audio += chunk
        pos += len(chunk)
        if len(chunk) < metaint or pos == len(body):
            break
        length = body[pos]
        pos += 1
        count += 1
        block = body[pos:pos + length * 16]
        assert len(block) == length * 16, "block cut short"
        pos += length * 16
        if length:
            blocks.append((len(audio), length, block))
    return bytes(audio), blocks, count


def check(name, body, expected):
    with open(os.path.join(ROOT, expected["source"]), "rb") as f:
        source = f.read()
    audio, blocks, count = deinterleave(body, expected["metaint"])
    assert audio == source, f"{name}: audio differs from {expected['source']}"
    assert hashlib.md5(audio).hexdigest() == expected["audioMD5"] and len(audio) == expected["audioBytes"]
    assert count == expected["blockCount"], (name, count)
    assert len(body) == len(source) + count + sum(16 * length for _, length, _ in blocks), name
    assert len(blocks) == len(expected["metadata"]), name
    for (offset, length, block), m in zip(blocks, expected["metadata"]):
        text = block.rstrip(b"\0")
        assert (offset, length, len(text)) == (m["audioOffset"], m["blockLength"], m["textBytes"]), (name, m)
        assert set(block[len(text):]) <= {0}
        try:
            raw = text.decode("utf-8")
        except UnicodeDecodeError:
            raw = text.decode("windows-1252")
        assert raw == m["raw"], (name, m["case"])
        # The values in the JSON appear in the text exactly as a key='value' field.
        for key in ("StreamTitle", "StreamUrl"):
            value = m["streamTitle" if key == "StreamTitle" else "streamUrl"]
            if value is None:
                assert key + "=" not in raw, (name, m["case"])
            else:
                start = raw.index(f"{key}='") + len(key) + 2
                assert raw[start:start + len(value)] == value, (name, m["case"])
                rest = raw[start + len(value):]
                assert rest == "'" or rest.startswith("';"), (name, m["case"])


def main():
    os.makedirs(OUT, exist_ok=True)
    for leftover in sorted(os.listdir(OUT)):  # what this script made last time
        if leftover.endswith((".body", ".json")):
            os.remove(os.path.join(OUT, leftover))
    for spec in BODIES:
        body, expected = make(spec)
        check(spec["name"], body, expected)
        with open(os.path.join(OUT, spec["name"] + ".body"), "wb") as f:
            f.write(body)
        with open(os.path.join(OUT, spec["name"] + ".json"), "w", encoding="utf-8") as f:
            json.dump(expected, f, indent=2, ensure_ascii=False)
            f.write("\n")
        # Read back what was written, in case writing changed anything.
        with open(os.path.join(OUT, spec["name"] + ".body"), "rb") as f:
            written = f.read()
        with open(os.path.join(OUT, spec["name"] + ".json"), encoding="utf-8") as f:
            check(spec["name"], written, json.load(f))
        print(f"make_icy_fixtures: {spec['name']}.body {len(body)} bytes, {expected['blockCount']} blocks, "
              f"{len(expected['metadata'])} with metadata")


if __name__ == "__main__":
    main()
