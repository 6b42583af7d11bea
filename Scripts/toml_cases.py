#!/usr/bin/env python3
"""Seeded TOML documents and what Python's tomllib makes of them, for TOMLTests.

Usage: toml_cases.py SEED COUNT
Prints one JSON object per line: {"doc": text, "ok": bool, "value": canonical}. Every second
document has one character deleted or inserted, so about half are invalid. The canonical form
is plain JSON: a table is an object, an array a list, and a scalar a tagged list —
["string", s], ["integer", "digits"], ["float", "bits in hex" or "nan"], ["bool", b],
["datetime", y, mo, d, h, mi, s, µs, offset minutes or null], ["date", y, mo, d],
["time", h, mi, s, µs]. tomllib keeps microseconds, so fractions are truncated to those; it
reads integers of any size, where TOML 1.0 requires an error beyond 64 bits, so those documents
count as invalid."""
import datetime
import json
import math
import random
import struct
import sys
import tomllib


def main():
    seed, count = int(sys.argv[1]), int(sys.argv[2])
    rng = random.Random(seed)
    for number in range(count):
        text = document(rng)
        if number % 2:
            text = mutate(rng, text)
        try:
            value, ok = canonical(tomllib.loads(text)), True
        except (tomllib.TOMLDecodeError, ValueError, OverflowError):
            value, ok = None, False
        print(json.dumps({"doc": text, "ok": ok, "value": value}, ensure_ascii=False))


def key(rng):
    return rng.choice(['a', 'b', 'c', 'key-1', 'k_2', '"quoted key"', "'lit'", '"a.b"', '1', '"é"', '""'])


def scalar(rng):
    kind = rng.randrange(12)
    if kind == 0:
        return str(rng.randint(-10**18, 10**18))
    if kind == 1:
        return rng.choice(['0x1F', '0o17', '0b101', '1_000', '+5', '-0', '0xdead_beef', '9223372036854775807'])
    if kind == 2:
        return rng.choice(['1.5', '-0.0', '6.02e23', '1e-5', 'inf', '-inf', 'nan', '3.14_15', '1E+2', '0.1'])
    if kind == 3:
        return rng.choice(['true', 'false'])
    if kind == 4:
        return rng.choice(['1979-05-27T07:32:00Z', '1979-05-27 07:32:00.999999-07:00', '1979-05-27',
                           '07:32:00.5', '2000-02-29T00:00:00', '1979-05-27T00:32:00.1234567+05:30'])
    if kind == 5:
        return '"' + rng.choice(['plain', 'tab\\tx', 'quote \\" x', 'uni \\u00e9 \\U0001F600', 'back\\\\slash']) + '"'
    if kind == 6:
        return "'" + rng.choice(['C:\\path', 'no \\escapes', '']) + "'"
    if kind == 7:
        return '"""\n' + rng.choice(['two\nlines', 'line \\\n   joined', 'q""x', '']) + '"""'
    if kind == 8:
        return "'''" + rng.choice(['raw\nlines', "it''s", '']) + "'''"
    if kind == 9:
        return '[' + ', '.join(scalar(rng) for _ in range(rng.randrange(4))) + rng.choice(['', ',']) + ']'
    if kind == 10:
        return '{' + ', '.join(f'{key(rng)} = {scalar(rng)}' for _ in range(rng.randrange(3))) + '}'
    return '[\n  ' + ',\n  '.join(scalar(rng) for _ in range(rng.randrange(1, 3))) + ',  # c\n]'


def document(rng):
    lines = []
    for _ in range(rng.randrange(1, 12)):
        kind = rng.randrange(6)
        path = '.'.join(key(rng) for _ in range(rng.randrange(1, 3)))
        if kind == 0:
            lines.append(f'[{path}]')
        elif kind == 1:
            lines.append(f'[[{path}]]')
        else:
            lines.append(f'{path} = {scalar(rng)}' + rng.choice(['', '  # comment']))
    return '\n'.join(lines) + rng.choice(['\n', '\r\n', ''])


def mutate(rng, text):
    if not text:
        return text
    at = rng.randrange(len(text))
    return rng.choice([text[:at] + text[at + 1:], text[:at] + rng.choice('[]{}=,."\'#\n \\x0_') + text[at:]])


def canonical(value):
    if isinstance(value, dict):
        return {name: canonical(item) for name, item in value.items()}
    if isinstance(value, list):
        return [canonical(item) for item in value]
    if isinstance(value, bool):
        return ['bool', value]
    if isinstance(value, int):
        if not -2**63 <= value < 2**63:
            raise OverflowError('TOML 1.0: an integer that does not fit in 64 bits is an error')
        return ['integer', str(value)]
    if isinstance(value, float):
        return ['float', 'nan' if math.isnan(value) else '%016x' % struct.unpack('<Q', struct.pack('<d', value))[0]]
    if isinstance(value, str):
        return ['string', value]
    if isinstance(value, datetime.datetime):
        offset = value.utcoffset()
        minutes = None if offset is None else int(offset.total_seconds()) // 60
        return ['datetime', value.year, value.month, value.day, value.hour, value.minute, value.second,
                value.microsecond, minutes]
    if isinstance(value, datetime.date):
        return ['date', value.year, value.month, value.day]
    if isinstance(value, datetime.time):
        return ['time', value.hour, value.minute, value.second, value.microsecond]
    raise TypeError(type(value))


if __name__ == '__main__':
    main()
