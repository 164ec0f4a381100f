#!/usr/bin/env python3
"""prose_check.py: measures the book's prose voice (sentence length, inline paths, internal vocabulary, length) and fails on a violation.

usage: tools/book/prose_check.py [--report] [FILE.md ...]
       (default: book.md and every chapters/*.md; run from the repository root)
       tools/book/prose_check.py --self-test   (each limit caught on a text that breaks it)

Prose only: each file is read by Pandoc (the reader the book uses) and only
paragraphs, list items, quotes and definitions count. Fenced code and includes,
tables, headings, figure and table captions, raw HTML and `::: {.measured}`
boxes ("How we measured") are left out. Inline code counts as one word.

The limits (exit 1 when one is broken; --report prints the same table and exits 0):
  - no internal vocabulary anywhere: "issue N", "lease"/"leased"/"lent", "seed NNN",
    "seedNNN", "the seed", commit hashes, and "target(s)" used as a goal the text never set;
  - per file: median sentence at most 22 words, at most 5 % of sentences over 45 words,
    at most 3 inline repository paths (a path whose first part is a top-level folder of
    the repository, such as bench/results/x.csv, or chNN/file);
  - chapters 5 + 6 + 8 together at most 14 500 words of prose.
"""
import argparse
import glob
import json
import os
import re
import statistics
import subprocess
import sys

MEDIAN_MAX = 22
LONG_WORDS = 45
LONG_SHARE_MAX = 0.05
PATHS_MAX = 3
BUDGET_CHAPTERS = (5, 6, 8)
BUDGET_WORDS = 14500

CODE = "\x00"  # stands for one inline code span inside a block's text

# Internal vocabulary: (label, pattern) on the prose text with code spans restored.
VOCAB = [
    ("issue N", re.compile(r"\bissues?\s+#?\d+", re.I)),
    ("lease/lent", re.compile(r"\b(lease[sd]?|leasing|lent)\b", re.I)),
    ("seed NNN", re.compile(r"\bseed[\s_-]*\d{3}\b", re.I)),
    ("the seed", re.compile(r"\bthe\s+seeds?\b", re.I)),
    ("commit hash", re.compile(r"(?<![\w./#-])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}(?![\w/-])")),
]
# "target(s)" is internal when it is a goal; not as a compile target, a destination, or a verb.
TARGET = re.compile(r"\btargets?\b", re.I)
TARGET_PREV_OK = {"compile", "build", "make", "can", "may", "must", "will", "to", "could", "would",
                  "should", "cannot", "also", "that", "which", "it", "they"}
TARGET_NEXT_OK = {"device", "devices", "cta", "ctas", "rank", "ranks", "sm", "sms", "address",
                  "addresses", "gpu", "gpus", "architecture", "slot", "slots", "buffer", "buffers",
                  "memory", "peer", "peers", "a", "an", "the", "its", "their", "one", "each", "every",
                  "file", "files", "sm_90a", "sm_90", "machine", "cluster", "mbarrier", "tile"}

# Where a sentence may not end although a period and a space follow.
ABBREV = re.compile(r"(\b(e\.g|i\.e|et al|cf|vs|etc|Fig|Eq|No|approx|resp)\.|\b[A-Z]\.)$")
SENTENCE_END = re.compile(r"[.!?][\"'”’)\]]*\s+(?=[\"“‘(\[*_A-Z0-9" + CODE + r"$])")


def stringify(inlines, codes):
    """Text of a list of Pandoc inlines; each inline code span becomes CODE and its text is appended to codes."""
    out = []
    for el in inlines:
        t, c = el["t"], el.get("c")
        if t == "Str":
            out.append(c)
        elif t in ("Space", "SoftBreak", "LineBreak"):
            out.append(" ")
        elif t == "Code":
            codes.append(c[1])
            out.append(CODE)
        elif t == "Math":
            out.append("math")
        elif t in ("Emph", "Strong", "Strikeout", "Superscript", "Subscript", "SmallCaps", "Underline"):
            out.append(stringify(c, codes))
        elif t == "Quoted":
            q = "'" if c[0]["t"] == "SingleQuote" else '"'
            out.append(q + stringify(c[1], codes) + q)
        elif t == "Cite":
            out.append(stringify(c[1], codes))
        elif t in ("Link", "Span"):
            out.append(stringify(c[1], codes))
        # Image (a caption), Note, RawInline: not prose
    return "".join(out)


def prose_blocks(blocks, out):
    """Append (text, codes) for every prose paragraph in blocks (recursively)."""
    for b in blocks:
        t, c = b["t"], b.get("c")
        if t in ("Para", "Plain"):
            codes = []
            text = stringify(c, codes).strip()
            if text:
                out.append((text, codes))
        elif t == "BlockQuote":
            prose_blocks(c, out)
        elif t in ("BulletList",):
            for item in c:
                prose_blocks(item, out)
        elif t == "OrderedList":
            for item in c[1]:
                prose_blocks(item, out)
        elif t == "DefinitionList":
            for _term, defs in c:
                for d in defs:
                    prose_blocks(d, out)
        elif t == "Div":
            if "measured" in c[0][1]:
                continue
            prose_blocks(c[1], out)
        # CodeBlock, Table, Header, RawBlock, HorizontalRule, LineBlock, Figure: not prose


def sentences(text):
    """Split a paragraph's text into sentences."""
    parts, start = [], 0
    for m in SENTENCE_END.finditer(text):
        head = text[start:m.start() + 1]
        if ABBREV.search(head.rstrip()):
            continue
        parts.append(head)
        start = m.end()
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


def words(s):
    return [w for w in s.split() if re.search(r"[\w" + CODE + "]", w)]


def restore(s, codes):
    """The sentence with its code spans put back (in backticks), for messages and searches."""
    it = iter(codes)
    return re.sub(CODE, lambda _m: "`" + next(it, "") + "`", s)


def repo_dirs(root):
    return {d for d in os.listdir(root) if os.path.isdir(os.path.join(root, d)) and not d.startswith(".")}


def is_repo_path(tok, dirs):
    tok = tok.strip("`'\"()[],.;:!?“”‘’")
    if "/" not in tok or "://" in tok or "#" in tok:
        return False
    first = tok.split("/")[0]
    return first in dirs or re.fullmatch(r"ch\d\d", first) is not None


def target_hits(text):
    hits = []
    for m in TARGET.finditer(text):
        before = text[:m.start()]
        if before.endswith("."):  # .target in PTX
            continue
        prev = re.findall(r"[\w']+", before[-40:])
        nxt = re.findall(r"[\w']+", text[m.end():m.end() + 40])
        if prev and prev[-1].lower() in TARGET_PREV_OK:
            continue
        if nxt and nxt[0].lower() in TARGET_NEXT_OK:
            continue
        hits.append(m.group(0))
    return hits


def measure(path, dirs):
    """Per-file numbers and the list of findings."""
    ast = json.loads(subprocess.run(
        ["pandoc", "-f", "markdown-auto_identifiers", "-t", "json", path],
        check=True, capture_output=True, text=True).stdout)
    paras = []
    prose_blocks(ast["blocks"], paras)
    lengths, long_ones, paths, vocab = [], [], [], []
    for text, codes in paras:
        it = iter(codes)
        for s in sentences(text):
            n = s.count(CODE)
            scodes = [next(it, "") for _ in range(n)]
            full = restore(s, scodes)
            k = len(words(s))
            lengths.append(k)
            if k > LONG_WORDS:
                long_ones.append((k, full))
            for code in scodes:
                if is_repo_path(code, dirs):
                    paths.append(code)
            for w in s.replace(CODE, " ").split():
                if is_repo_path(w, dirs):
                    paths.append(w.strip("`'\"()[],.;:!?"))
            for label, rx in VOCAB:
                for m in rx.finditer(full):
                    vocab.append((label, m.group(0), full))
            plain = s.replace(CODE, "code")
            for h in target_hits(plain):
                vocab.append(("target", h, full))
    total = sum(lengths)
    return {
        "file": path,
        "words": total,
        "sentences": len(lengths),
        "median": statistics.median(lengths) if lengths else 0,
        "long": len(long_ones),
        "long_share": len(long_ones) / len(lengths) if lengths else 0.0,
        "paths": paths,
        "vocab": vocab,
        "long_list": long_ones,
    }


def chapter_number(path):
    m = re.match(r"(\d\d)-", os.path.basename(path))
    return int(m.group(1)) if m else None


SELF_TESTS = {
    # name: (Markdown, what measure() must find)
    "clean": ("Short sentences read well. A second one, with `code`, follows.\n\n"
              "```c\nint issue_20 = 1; /* the seed 001 */\n```\n\n"
              "::: {.measured}\nOn a leased H200, see issue 12 and `bench/results/a.csv`.\n:::\n",
              lambda r: not r["vocab"] and not r["paths"] and r["sentences"] == 2),
    "vocab": ("As issue 20 asked, the seed's kernel ran on a lease (commit 004e5511a8a2). "
              "Seed 001 agrees. The target was met.\n",
              lambda r: {v[0] for v in r["vocab"]} == {"issue N", "the seed", "lease/lent", "commit hash",
                                                     "seed NNN", "target"}),
    "not vocab": ("Each copy can target a peer. The compile target is sm_90a. "
                  "See NVIDIA/cutlass#1684 and the mbarrier at 0x1f2e3d4c.\n",
                  lambda r: not r["vocab"]),
    "paths": ("Data: `bench/results/x.csv`, tests/ch05/test_a.c and `ch02/ring.cu`; not TB/s.\n",
              lambda r: len(r["paths"]) == 3),
    "long": ("One " + "word " * 50 + "ends here. Short one.\n",
             lambda r: r["long"] == 1 and r["sentences"] == 2 and r["median"] > 22),
    "abbrev": ("Use e.g. a flag, i.e. one word. Luo et al. measured it.\n",
               lambda r: r["sentences"] == 2),
}


def self_test():
    import tempfile
    dirs = repo_dirs(".")
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, (text, ok) in SELF_TESTS.items():
            path = os.path.join(tmp, name.replace(" ", "_") + ".md")
            with open(path, "w") as f:
                f.write(text)
            r = measure(path, dirs)
            good = ok(r)
            failed += not good
            print(f"self-test {name}: {'ok' if good else 'FAILED'}"
                  + ("" if good else f" (vocab {r['vocab']}, paths {r['paths']}, sentences {r['sentences']})"))
    return 1 if failed else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--report", action="store_true", help="print the table and the findings, never fail")
    ap.add_argument("--quiet", action="store_true", help="the table and the verdict only, no findings")
    ap.add_argument("--self-test", action="store_true", help="check that each limit is caught")
    ap.add_argument("files", nargs="*")
    args = ap.parse_args()
    if args.self_test:
        return self_test()
    files = args.files or (["book.md"] + sorted(glob.glob("chapters/*.md")))
    dirs = repo_dirs(".")

    rows = [measure(f, dirs) for f in files]
    problems = []
    print(f"{'file':34} {'words':>6} {'sent':>5} {'median':>6} {'>45w':>6} {'paths':>5} {'vocab':>5}")
    for r in rows:
        flags = []
        if r["median"] > MEDIAN_MAX:
            flags.append("median")
        if r["long_share"] > LONG_SHARE_MAX:
            flags.append(">45w")
        if len(r["paths"]) > PATHS_MAX:
            flags.append("paths")
        if r["vocab"]:
            flags.append("vocab")
        print(f"{os.path.basename(r['file'])[:34]:34} {r['words']:6d} {r['sentences']:5d} {r['median']:6.1f} "
              f"{100 * r['long_share']:5.1f}% {len(r['paths']):5d} {len(r['vocab']):5d}"
              + ("   <- " + ", ".join(flags) if flags else ""))
        problems += [(r, f) for f in flags]

    budget = [r for r in rows if chapter_number(r["file"]) in BUDGET_CHAPTERS]
    budget_words = sum(r["words"] for r in budget)
    names = " + ".join(str(chapter_number(r["file"])) for r in budget)
    over = len(budget) == len(BUDGET_CHAPTERS) and budget_words > BUDGET_WORDS
    print(f"prose words of chapters {names}: {budget_words} (limit {BUDGET_WORDS})" + ("   <- over" if over else ""))
    print(f"limits: median <= {MEDIAN_MAX} words, <= {100 * LONG_SHARE_MAX:.0f} % of sentences over {LONG_WORDS} "
          f"words, <= {PATHS_MAX} inline repository paths, no internal vocabulary")

    if not args.quiet:
        for r in rows:
            name = r["file"]
            for label, hit, sent in r["vocab"]:
                print(f"{name}: internal vocabulary ({label}) '{hit}': {sent[:160]}")
            if len(r["paths"]) > PATHS_MAX:
                print(f"{name}: {len(r['paths'])} inline repository paths: " + ", ".join(r["paths"][:40]))
            if r["long_share"] > LONG_SHARE_MAX:
                for k, sent in sorted(r["long_list"], reverse=True)[:8]:
                    print(f"{name}: {k} words: {sent[:160]}...")

    failed = bool(problems) or over
    if failed:
        print(f"prose-check: {'REPORT' if args.report else 'FAILED'}: {len(problems) + int(over)} limits broken "
              "(provenance into captions or ::: {.measured} boxes, shorter sentences, no internal vocabulary)")
        return 0 if args.report else 1
    print("prose-check: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
