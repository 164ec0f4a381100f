#!/usr/bin/env python3
"""check_plot_keys.py: every plot script keeps its legend outside the data. Each `plot` of
figures/plots/*.gp is drawn with its key off (`set key off`, `unset key`, or no titled series), or
placed by its own `set key` outside the plot area (`outside`, or `at screen X, screen Y`), or in a
key-only panel (a plot of NaN series, which draws no data). gnuplot's default key, and any `set key`
that says neither, sits inside the data: that fails, naming the script and the line.
Usage: check_plot_keys.py figures/plots/*.gp     check_plot_keys.py --self-test   (proves each rule fails)"""

import re
import sys


def strip_comment(line):
    """The line without its # comment (a # inside quotes, like "#1f5f99", is kept)."""
    quote = None
    for i, c in enumerate(line):
        if quote:
            quote = None if c == quote else quote
        elif c in "\"'":
            quote = c
        elif c == "#":
            return line[:i]
    return line


def commands(text):
    """(line number, command) for each command, continuation lines joined, comments dropped."""
    out, buf, start = [], "", 0
    for n, raw in enumerate(text.splitlines(), 1):
        line = strip_comment(raw).rstrip()
        if not buf:
            start = n
        if line.endswith("\\"):
            buf += line[:-1] + " "
            continue
        buf += line
        for part in split_top(buf, ";"):
            if part.strip():
                out.append((start, part.strip().lstrip("{").strip()))
        buf = ""
    return out


def split_top(s, sep):
    """s split at each sep outside quotes, parentheses and brackets."""
    parts, depth, quote, cur = [], 0, None, ""
    for c in s:
        if quote:
            quote = None if c == quote else quote
        elif c in "\"'":
            quote = c
        elif c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == sep and depth == 0:
            parts.append(cur)
            cur = ""
            continue
        cur += c
    return parts + [cur]


def key_place(args):
    """Where `set key ARGS` puts the key: 'off', 'outside' or 'inside'."""
    words = args.split()
    if "off" in words or "noautotitle" in words:
        return "off"
    if "outside" in words or re.search(r"\bat\s+screen\s+[^,]+,\s*screen\b", args):
        return "outside"
    return "inside"


def draws_key_inside(plot_args):
    """True when a plot draws a titled series that is data (a plot of NaN draws no data)."""
    items = [i.strip() for i in split_top(plot_args, ",") if i.strip()]
    titled = [i for i in items if not re.search(r"\bnotitle\b|\bt(itle)?\s+(\"\"|'')", i)]
    return any(not re.match(r"NaN\b", i) for i in titled) and bool(titled)


def problems(name, text):
    """Each plot of the script whose key sits inside the data, as 'name:line: why'."""
    place, where, found = "inside", "gnuplot's default key (top right, inside)", []
    for n, cmd in commands(text):
        m = re.match(r"(set|unset)\s+key\b(.*)", cmd)
        if m:
            place = "off" if m.group(1) == "unset" else key_place(m.group(2))
            where = f"line {n}: set key{m.group(2)}"
            continue
        m = re.match(r"(s?plot)\s+(.*)", cmd)
        if m and place == "inside" and draws_key_inside(m.group(2)):
            found.append(f"{name}:{n}: the plot's legend sits inside its data ({where.strip()}); "
                         "use `set key outside ...`, `set key at screen X, screen Y` or `set key off`")
    return found


BAD = {
    "no set key": 'plot csv using 1:2 with lines title "a"\n',
    "set key top left": 'set key top left\nplot csv using 1:2 with lines title "a", "" using 1:3 notitle\n',
    "set key at graph": 'set key at graph 0.9, graph 0.9\nplot csv using 1:2 with lines title "a"\n',
    "inside after a loop": 'do for [i=1:2] {\n    unset key\n    plot csv using 1:2 notitle\n}\n'
                           'set key top right # inside\nplot csv using 1:2 w l \\\n     title "a"\n',
}
GOOD = {
    "outside": 'set key outside bottom center horizontal\nplot csv using 1:2 with lines title "a"\n',
    "at screen": 'set key at screen 0.5, screen 0.02 center bottom\nplot csv using 1:2 lc rgb "#1f5f99" title "a"\n',
    "off": 'set key off\nplot csv using 1:2 title "a"\n',
    "key-only panel": 'set key center center\nplot NaN with lines title "a", NaN with lines title "b"\n',
    "untitled": 'plot csv using 1:2 notitle, "" using 1:3 notitle\n',
}


def self_test():
    bad = [k for k, t in BAD.items() if not problems(k, t)]
    good = [f"{k}: {problems(k, t)}" for k, t in GOOD.items() if problems(k, t)]
    for k in bad:
        print(f"not ok - plot keys self-test: '{k}' passes, but its key sits inside the data")
    for k in good:
        print(f"not ok - plot keys self-test: {k}")
    print(f"plot keys self-test: {len(BAD) + len(GOOD) - len(bad) - len(good)} of {len(BAD) + len(GOOD)} cases right")
    return 1 if bad or good else 0


def main(paths):
    found = []
    for p in paths:
        with open(p, encoding="utf-8") as f:
            found += problems(p, f.read())
    print(("not ok" if found else "ok") + f" - plots: the legends of {len(paths)} plot scripts lie outside their data")
    for pr in found:
        print(f"    {pr}")
    return 1 if found else 0


if __name__ == "__main__":
    if sys.argv[1:] == ["--self-test"]:
        sys.exit(self_test())
    sys.exit(main(sys.argv[1:]))
