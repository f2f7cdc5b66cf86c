#!/usr/bin/env python3
"""Rescales a squared-activation network written with output weights of QB 64 (the first
form of `--activation screlu`, 2026-12-04) to the engine's QB 512 with v^2 read in 256ths:
the weights exactly (x8), the output bias to the new unit (QA^2 * 2 instead of QA^2 * 64)."""
import struct, sys
src, dst = sys.argv[1], sys.argv[2]
b = bytearray(open(src, 'rb').read())
assert b[:8] == b'BTNNUE01' and b[43] == 1
inputs, hidden, qa, qb = struct.unpack_from('<HHHH', b, 26)
assert (hidden, qa, qb) == (256, 255, 64), (hidden, qa, qb)
about_len = struct.unpack_from('<I', b, 38)[0]
about = bytes(b[48:48 + about_len])
body = b[48 + about_len:]
buckets = max(1, b[42])
n1 = inputs * hidden + hidden
n2 = buckets * 2 * hidden
w = list(struct.unpack_from('<%dh' % (n1 + n2), body, 0))
out = w[:n1] + [x * 8 for x in w[n1:]]
assert all(-32768 <= x <= 32767 for x in out)
biases = struct.unpack_from('<%di' % buckets, body, 2 * (n1 + n2))
new_biases = [int(round(x / 32)) for x in biases]
about += b'; output weights rescaled from QB 64 to 512 after training (exact), bias to the new unit'
header = bytearray(b[:48])
struct.pack_into('<H', header, 32, 512)
struct.pack_into('<I', header, 38, len(about))
res = header + about + struct.pack('<%dh' % len(out), *out) + struct.pack('<%di' % buckets, *new_biases)
open(dst, 'wb').write(res)
h = 0xcbf29ce484222325
for x in res:
    h = ((h ^ x) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
print('%08x' % (h & 0xffffffff), biases, new_biases)
