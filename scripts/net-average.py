#!/usr/bin/env python3
# Average two networks of one shape (a fine-tuned one and its start, as WiSE-FT does): the
# first layer averaged, the output weights averaged in centipawns at the second one's scale.
# A one-bucket SECOND is copied into each of FIRST's output buckets first.
# Usage: scripts/net-average.py FIRST.nnue SECOND.nnue OUT.nnue [WEIGHT_OF_SECOND=0.5]
import struct, sys
if len(sys.argv) not in (4, 5):
    sys.exit('usage: scripts/net-average.py FIRST.nnue SECOND.nnue OUT.nnue [WEIGHT_OF_SECOND=0.5]')
def digest(b):
    # The low 32 bits of the FNV-1a hash, as the engine names network files.
    h = 0xcbf29ce484222325
    for byte in b:
        h = ((h ^ byte) * 0x100000001b3) & 0xffffffffffffffff
    return '%08x' % (h & 0xffffffff)
def load(p):
    b = open(p, 'rb').read()
    assert b[:8] == b'BTNNUE01'
    inputs, hidden, qa, qb = struct.unpack_from('<HHHH', b, 26)
    scale, about_len = struct.unpack_from('<iI', b, 34)
    buckets = b[42] or 1
    head = b[:48]
    about = b[48:48 + about_len]
    off = 48 + about_len
    n16 = inputs * hidden + hidden + buckets * 2 * hidden
    w = list(struct.unpack_from('<%dh' % n16, b, off)); off += 2 * n16
    ob = list(struct.unpack_from('<%di' % buckets, b, off)); off += 4 * buckets
    assert off == len(b)
    variant = b[8:24].rstrip(b'\0')
    return dict(variant=variant, digest=digest(b), head=head, inputs=inputs, hidden=hidden, scale=scale, buckets=buckets, w=w, ob=ob, about=about)
a, c = load(sys.argv[1]), load(sys.argv[2])
t = float(sys.argv[4]) if len(sys.argv) > 4 else 0.5  # weight of the second
first = a['inputs'] * a['hidden'] + a['hidden']  # the first layer's values, then the output's
widened = c['buckets'] == 1 < a['buckets']
if widened:
    # A one-output start (`train --init` copies it into every bucket): copied here too,
    # and the result takes the first's header, which names its buckets.
    c['w'] = c['w'][:first] + c['w'][first:] * a['buckets']
    c['ob'] = c['ob'] * a['buckets']
    c['buckets'] = a['buckets']
    c['head'] = c['head'][:42] + a['head'][42:43] + c['head'][43:]
assert (a['inputs'], a['hidden'], a['buckets']) == (c['inputs'], c['hidden'], c['buckets'])
assert a['head'][43] == c['head'][43]
s = c['scale']
w = []
for i, (x, y) in enumerate(zip(a['w'], c['w'])):
    if i < first:
        v = (1 - t) * x + t * y
    else:  # output weights: in centipawns, at the second's scale
        v = ((1 - t) * x * a['scale'] + t * y * c['scale']) / s
    w.append(max(-32768, min(32767, round(v))))
ob = [round(((1 - t) * x * a['scale'] + t * y * c['scale']) / s) for x, y in zip(a['ob'], c['ob'])]
# The description is the fine-tuned network's (it names the new data): the first's where
# it says it was started from the second, else the second's.
if b'started from %s-%s' % (c['variant'], c['digest'].encode()) in a['about']:
    about = (a['about'].decode() + '; averaged with %s%s (weight %.2f for it)' % (sys.argv[2].split('/')[-1], ', its one output in each bucket' if widened else '', t)).encode()
else:
    about = (c['about'].decode() + '; averaged with %s (weight %.2f for this one)' % (sys.argv[1].split('/')[-1], t)).encode()
head = bytearray(c['head'])
struct.pack_into('<iI', head, 34, s, len(about))
out = bytes(head) + about + struct.pack('<%dh' % len(w), *w) + struct.pack('<%di' % len(ob), *ob)
open(sys.argv[3], 'wb').write(out)
print(sys.argv[3], digest(out))
