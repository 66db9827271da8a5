#!/usr/bin/env python3
"""A live hall game's call order, from docs/hall.md's formula alone: written
apart from the hall's code (ChaCha20 from RFC 8439, SHA-256 from Python's
hashlib), so a test can hold the two against each other.

    python3 tests/live/order.py SEED ROOM BALLS   → the order, one number a line
    python3 tests/live/order.py --keystream SEED N → the first N bytes of the stream, hex
    python3 tests/live/order.py --self-test       → RFC 8439's block test vector
"""
import hashlib
import struct
import sys

MASK = 0xFFFFFFFF


def rotl(x, n):
    return ((x << n) | (x >> (32 - n))) & MASK


def quarter(s, a, b, c, d):
    s[a] = (s[a] + s[b]) & MASK; s[d] = rotl(s[d] ^ s[a], 16)
    s[c] = (s[c] + s[d]) & MASK; s[b] = rotl(s[b] ^ s[c], 12)
    s[a] = (s[a] + s[b]) & MASK; s[d] = rotl(s[d] ^ s[a], 8)
    s[c] = (s[c] + s[d]) & MASK; s[b] = rotl(s[b] ^ s[c], 7)


def block(key, counter, nonce):
    """RFC 8439 2.3: one 64-byte keystream block."""
    state = [0x61707865, 0x3320646E, 0x79622D32, 0x6B206574]
    state += list(struct.unpack("<8I", key)) + [counter] + list(struct.unpack("<3I", nonce))
    s = state[:]
    for _ in range(10):
        quarter(s, 0, 4, 8, 12); quarter(s, 1, 5, 9, 13); quarter(s, 2, 6, 10, 14); quarter(s, 3, 7, 11, 15)
        quarter(s, 0, 5, 10, 15); quarter(s, 1, 6, 11, 12); quarter(s, 2, 7, 8, 13); quarter(s, 3, 4, 9, 14)
    return struct.pack("<16I", *[(x + y) & MASK for x, y in zip(s, state)])


def words(key):
    counter = 0
    while True:
        for w in struct.unpack("<16I", block(key, counter, bytes(12))):
            yield w
        counter += 1


def key_of(seed, room):
    return hashlib.sha256(b"bingomint live calls v2" + b"\0" + seed.encode() + b"\0" + room.encode()).digest()


def order(seed, room, balls):
    stream = words(key_of(seed, room))

    def below(n):
        limit = 2**32 - (2**32 % n)
        while True:
            w = next(stream)
            if w < limit:
                return w % n

    a = list(range(1, balls + 1))
    for i in range(balls - 1):
        j = i + below(balls - i)
        a[i], a[j] = a[j], a[i]
    return a


def self_test():
    key = bytes(range(32))
    nonce = bytes.fromhex("000000090000004a00000000")
    out = block(key, 1, nonce)
    assert out[:16].hex() == "10f1e7e4d13b5915500fdd1fa32071c4", out[:16].hex()
    print("ok: RFC 8439 2.3.2")


if __name__ == "__main__":
    if sys.argv[1:] == ["--self-test"]:
        self_test()
    elif sys.argv[1] == "--keystream":
        key, n = key_of(sys.argv[2], ""), int(sys.argv[3])
        out = b"".join(block(key, c, bytes(12)) for c in range((n + 63) // 64))
        print(out[:n].hex())
    else:
        seed, room, balls = sys.argv[1], sys.argv[2], int(sys.argv[3])
        print("\n".join(map(str, order(seed, room, balls))))
