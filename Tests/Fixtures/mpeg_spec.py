"""MPEG audio frame headers per ISO/IEC 11172-3 and 13818-3, written from the
spec for the fixture script. Used to cross-check ffprobe and, where ffprobe
cannot read a stream (free format), to compute the packet list by walking the
frames with the spec's frame-length formula."""

BITRATES = {  # kbit/s by (version is MPEG-1, layer); index 0 = free format
    (True, 1): [0, 32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 352, 384, 416, 448],
    (True, 2): [0, 32, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320, 384],
    (True, 3): [0, 32, 40, 48, 56, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320],
    (False, 1): [0, 32, 48, 56, 64, 80, 96, 112, 128, 144, 160, 176, 192, 224, 256],
    (False, 2): [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
    (False, 3): [0, 8, 16, 24, 32, 40, 48, 56, 64, 80, 96, 112, 128, 144, 160],
}
SAMPLE_RATES = {"1": [44100, 48000, 32000], "2": [22050, 24000, 16000], "2.5": [11025, 12000, 8000]}
VERSIONS = {3: "1", 2: "2", 0: "2.5"}
MODES = ["stereo", "joint", "dual", "mono"]


class Header:
    """One decoded 4-byte frame header."""

    def __init__(self, b):
        self.raw = bytes(b[:4])
        self.version = VERSIONS[(b[1] >> 3) & 3]
        self.layer = 4 - ((b[1] >> 1) & 3)
        self.crc = not (b[1] & 1)
        self.bitrate_index = b[2] >> 4
        self.sample_rate = SAMPLE_RATES[self.version][(b[2] >> 2) & 3]
        self.padding = (b[2] >> 1) & 1
        self.mode = MODES[b[3] >> 6]
        self.channels = 1 if self.mode == "mono" else 2
        self.emphasis = b[3] & 3
        mpeg1 = self.version == "1"
        self.kbps = BITRATES[(mpeg1, self.layer)][self.bitrate_index]
        self.free_format = self.bitrate_index == 0
        if self.layer == 1:
            self.samples, self.slot = 384, 4
        elif self.layer == 3 and not mpeg1:
            self.samples, self.slot = 576, 1
        else:
            self.samples, self.slot = 1152, 1

    @property
    def length(self):
        """Frame length in bytes, or None for free format."""
        if self.free_format:
            return None
        per_slot = self.samples // 8 // self.slot  # 12 (L1), 144 or 72
        return (per_slot * self.kbps * 1000 // self.sample_rate + self.padding) * self.slot

    def same_stream(self, other):
        """Fields that stay fixed between frames of one stream. The channel
        mode may change (ISO's l3-he_mode.bit switches mono/stereo/dual)."""
        return (self.version, self.layer, self.sample_rate, self.free_format) == \
            (other.version, other.layer, other.sample_rate, other.free_format)

    def same_format(self, other):
        """Same stream and same channel count: no DataFormat change."""
        return self.same_stream(other) and self.channels == other.channels


def parse_header(data, pos):
    """Header at data[pos], or None if the four bytes are not a valid header."""
    if pos + 4 > len(data):
        return None
    b = data[pos:pos + 4]
    if b[0] != 0xFF or (b[1] & 0xE0) != 0xE0:
        return None
    if (b[1] >> 3) & 3 == 1 or (b[1] >> 1) & 3 == 0:  # reserved version / layer
        return None
    if b[2] >> 4 == 15 or (b[2] >> 2) & 3 == 3:  # bad bitrate / reserved rate
        return None
    # The emphasis value 2 is reserved, but ISO's l3-hecommon.bit uses it in
    # real frames and decoders ignore it, so it does not disqualify a header.
    return Header(b)


def free_format_base(data, pos, head):
    """Unpadded length of the free-format frame at pos: the distance to the next
    header of the same stream whose own successors confirm it, less padding."""
    for q in range(pos + 4 + 1, min(len(data), pos + 8000)):
        h = parse_header(data, q)
        if h is None or not h.same_stream(head):
            continue
        base = q - pos - head.padding * head.slot
        ok, r, hr = True, q, h
        for _ in range(3):  # the next three frames must line up too
            r += base + hr.padding * hr.slot
            if r >= len(data):
                break
            hr = parse_header(data, r)
            if hr is None or not hr.same_stream(head):
                ok = False
                break
        if ok:
            return base
    return None


def walk(data, start=0):
    """Frames of a clean stream: from the first confirmed header, step by the
    spec's frame length while headers stay valid and of the same stream.
    Returns (frames as (offset, size), offset where the walk stopped)."""
    n = len(data)
    p = start
    while p < n:
        h = parse_header(data, p)
        if h is not None:
            length = h.length or free_format_base(data, p, h)
            if length:
                q = p + (length if h.length else length + h.padding * h.slot)
                h2 = parse_header(data, q)
                if q == n or (h2 is not None and h2.same_stream(h)):
                    break
        p += 1
    frames, first, base = [], (parse_header(data, p) if p < n else None), None
    if first is not None and first.free_format:
        base = free_format_base(data, p, first)
    while p < n:
        h = parse_header(data, p)
        if h is None or not h.same_stream(first):
            break
        length = h.length if base is None else base + h.padding * h.slot
        if p + length > n:
            break
        frames.append((p, length))
        p += length
    return frames, p
