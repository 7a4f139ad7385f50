#!/usr/bin/env python3
"""Regenerates the golden files in this directory from Python's json module,
which serves as an independent oracle for the canonical form:

    json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False)

Run from this directory:  python3 gen.py
"""
import json, math, random, struct

rng = random.Random(20240611)

def canon(v):
    return json.dumps(v, sort_keys=True, separators=(",", ":"), ensure_ascii=False,
                      allow_nan=False)

# ---- floats.txt: <float64 bits in hex> <repr> ----
def f64(bits):
    return struct.unpack("<d", struct.pack("<Q", bits))[0]

floats = []
for _ in range(2000):
    x = f64(rng.getrandbits(64))
    if math.isfinite(x):
        floats.append(x)
for _ in range(1000):
    floats.append(rng.uniform(-1, 1) * 10 ** rng.randint(-8, 20))
for _ in range(500):
    floats.append(round(rng.uniform(-1e6, 1e6), rng.randint(0, 9)))
for e in range(-330, 310):
    for m in (1.0, 1.5, 9.999999999999999, 2.5, 7.0):
        try:
            x = float("%re%d" % (m, e))
            if math.isfinite(x):
                floats.append(x)
        except OverflowError:
            pass
for k in range(0, 64):
    floats += [2.0 ** k, -(2.0 ** k), 2.0 ** -k, 2.0 ** k - 1, 2.0 ** k + 1]
floats += [0.0, -0.0, 5e-324, -5e-324, 2.2250738585072014e-308, 1.7976931348623157e308,
           1e15, 1e16, 9999999999999998.0, 1e-4, 1e-5, 0.00009999999999999999, 0.1, 0.2, 0.3]
with open("floats.txt", "w") as f:
    for x in floats:
        bits = struct.unpack("<Q", struct.pack("<d", x))[0]
        f.write("%016x %s\n" % (bits, repr(x)))

# ---- golden.jsonl: {"name","in","out","sha256"} ----
import hashlib
cases = []
def add(name, text):
    v = json.loads(text)
    out = canon(v)
    cases.append({"name": name, "in": text, "out": out,
                  "sha256": hashlib.sha256(out.encode("utf-8")).hexdigest()})

add("edge_key_R", '["a","b","R",""]')
add("edge_key_KNOWS", '["a","b","KNOWS",""]')
add("scalars", '[null,true,false,0,-0,1,-1,9223372036854775807,-9223372036854775808]')
add("floats", '[1.0,1e2,1E2,-0.0,0.5e1,1e-7,123e-20,1e16,1.5e16,1e+100,0.1,100.0,1e15]')
add("whitespace", ' \t\r\n{ "b" : [ 1 , 2 ] ,\n "a" : { } , "c" : [ ] }\n ')
add("escapes", r'"\"\\\/\b\f\n\r\t\u0000\u001f\u001F\u007f\u00e9\u2028\u2029\ud83d\ude00<>&"')
add("raw_unicode", '"caf\u00e9 \u65e5\u672c \U0001f600 \u2028 \x7f"')
add("key_order_prefix", '{"ab":1,"a":2,"abc":3,"":4,"b":5,"aa":6}')
add("key_order_unicode", '{"\\u00e9":1,"z":2,"\\u65e5":3,"\\ud83d\\ude00":4,"\\uffff":5,"Z":6,"\\u007f":7,"\\u0080":8}')
add("key_order_case", '{"b":1,"B":2,"a":3,"A":4,"_":5,"0":6}')
add("nested", '{"z":{"y":{"x":[{"b":1,"a":2},[],{}]}},"a":[[[[]]]]}')
add("row", '{"id":"n1","labels":["Person"],"props":{"name":"Ada","age":36,"score":0.1},'
          '"valid_from":1700000000000,"valid_to":null,"tx_from":1700000000001,"tx_to":null}')

def rand_str():
    alphabet = ["a", "b", "Z", "0", " ", '"', "\\", "/", "<", ">", "&", "\n", "\t", "\x00",
                "\x1f", "\x7f", "\u00e9", "\u2028", "\u2029", "\ufeff", "\U0001f600", "\u65e5", "\x08", "\x0c"]
    return "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 8)))

def rand_float():
    r = rng.random()
    if r < 0.3:
        x = f64(rng.getrandbits(64))
        return x if math.isfinite(x) else 0.5
    if r < 0.6:
        return round(rng.uniform(-1e3, 1e3), rng.randint(0, 6))
    return float(rng.randint(-10**6, 10**6))

def rand_value(depth):
    r = rng.random()
    if depth > 3 or r < 0.45:
        k = rng.randint(0, 5)
        return [None, True, False, rng.randint(-2**63, 2**63 - 1), rand_float(), rand_str()][k]
    if r < 0.7:
        return [rand_value(depth + 1) for _ in range(rng.randint(0, 4))]
    return {rand_str(): rand_value(depth + 1) for _ in range(rng.randint(0, 5))}

for i in range(150):
    v = rand_value(0)
    text = json.dumps(v, ensure_ascii=rng.random() < 0.5, indent=rng.choice([None, 1, "\t"]))
    add("random_%03d" % i, text)

with open("golden.jsonl", "w", encoding="utf-8") as f:
    for c in cases:
        f.write(json.dumps(c, ensure_ascii=True) + "\n")
