"""The simulator's unit suffixes in Python: "40Gbps", "5KB", "1.5us" parsed exactly as
src/core/units.cc parses them (the one parser of the Python side, for the report scripts and
dcqcn tune; tests/python/test_report.py checks it against tests/core/units_test.cc's cases).
Pure Python: it loads without the compiled extension (see dcqcn/__init__.py).

Values are integers in the base unit: picoseconds, bits per second, bytes. Accepted text: optional
leading spaces, an optional sign, a decimal number (no exponent), optional spaces and a suffix of
the kind, matched exactly and case-sensitively; nothing after it. Sizes are decimal (KB = 1000 B)
unless binary (KiB = 1024 B). A fraction rounds to the nearest base unit (half away from zero).
Malformed text and magnitudes beyond the simulator's bounds (units.h: kMaxTime, kMaxRate,
kMaxSize) give None; parse() also says why for the latter, as units.cc's `why` does.
"""

# (suffix, base units per suffix) of each kind, as units.cc's kTimeUnits, kRateUnits, kSizeUnits.
TIME_UNITS = [("ps", 1), ("ns", 10**3), ("us", 10**6), ("ms", 10**9), ("s", 10**12)]
RATE_UNITS = [("bps", 1), ("Kbps", 10**3), ("Mbps", 10**6), ("Gbps", 10**9), ("Tbps", 10**12)]
SIZE_UNITS = [("B", 1), ("KB", 10**3), ("MB", 10**6), ("GB", 10**9),
              ("KiB", 2**10), ("MiB", 2**20), ("GiB", 2**30)]
UNITS = {"time": TIME_UNITS, "rate": RATE_UNITS, "size": SIZE_UNITS}

# The largest magnitude of each kind (units.h) and how units.cc prints it in its message.
MAX = {"time": (10**18, "1000000s"), "rate": (10**15, "1000Tbps"),
       "size": (10**15, "1000000GB")}

# Which kind a suffix is of: the kinds share no suffix.
KIND_OF = {suffix: kind for kind, units in UNITS.items() for suffix, _ in units}


def parse(text, kind):
    """(value, why) of `text` as a quantity of `kind` ("time", "rate" or "size"): value the
    integer in base units or None; why "at most <bound>" when the magnitude is beyond the bound,
    else "" (units.cc's ParseWithUnits)."""
    text = str(text)
    i = 0
    while i < len(text) and text[i] == " ":
        i += 1
    begin = i
    if i < len(text) and text[i] in "+-":
        i += 1
    digits = False
    while i < len(text) and (text[i].isascii() and text[i].isdigit() or text[i] == "."):
        digits = digits or text[i] != "."
        i += 1
    if not digits:
        return None, ""
    number = text[begin:i]
    if number.count(".") > 1:
        return None, ""
    while i < len(text) and text[i] == " ":
        i += 1
    suffix = text[i:]
    scale = dict(UNITS[kind]).get(suffix)
    if scale is None:
        return None, ""
    bound, bound_text = MAX[kind]
    negative = number[0] == "-"
    number = number.lstrip("+-")
    int_part, _, frac_part = number.partition(".")
    int_part = int_part.lstrip("0")
    if len(int_part) > 18:  # beyond any bound (and 64 bits)
        return None, f"at most {bound_text}"
    value = int(int_part or "0") * scale
    if frac_part:
        frac_part = frac_part[:18]
        denom = 10 ** len(frac_part)
        value += (int(frac_part) * scale + denom // 2) // denom
    if value > bound:
        return None, f"at most {bound_text}"
    return (-value if negative else value), ""


def parse_time(text):
    """Picoseconds in "1.5us", or None (units.cc's ParseTime)."""
    return parse(text, "time")[0]


def parse_rate(text):
    """Bits per second in "40Gbps", or None (units.cc's ParseRate)."""
    return parse(text, "rate")[0]


def parse_size(text):
    """Bytes in "24.47KB" or "1MiB", or None (units.cc's ParseSize)."""
    return parse(text, "size")[0]


def parse_quantity(text):
    """(value in base units, kind, suffix) of a quantity of any kind: "40KB" -> (40000, "size",
    "KB"); None when `text` is not one (no suffix, an unknown one, malformed or beyond the
    bound)."""
    text = str(text)
    for suffix in sorted(KIND_OF, key=len, reverse=True):  # "Gbps" before "s", "KiB" before "B"
        if text.endswith(suffix):
            kind = KIND_OF[suffix]
            value = parse(text, kind)[0]
            return None if value is None else (value, kind, suffix)
    return None
