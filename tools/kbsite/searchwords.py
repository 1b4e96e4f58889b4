"""Words the theme's search should find a page or a claim by, beyond those its text spells: the other
spellings of what it says (start-up and startup, quantisation and quantization, KV cache and kvcache), the
file names and symbols it names or cites (`patch.py` for `vllm_omni/patch.py`, `csv` for `claims.csv`), and, for a page, the
topics its front matter lists under `keywords`. Pages and their sections weigh more than single claims, so
that the page answering a question comes before a claim that only mentions its words.

Pure: the MkDocs glue hands over the built index and what it knows of the pages and claims. The words go
into two fields the theme indexes but never shows (`words`, weighed as text, and `topics`, weighed as a
title), so that results read exactly as the page does.

Small, because a reader waits for it: the first search waits for the pages' index (`search_index.json`),
and the claims' entries come in a second file (`search_claims.json`) that search-later.js adds to the
theme's search once the first answer is shown. A long text is shown up to a few whole blocks; the rest
of it is indexed as its words, each once, without those the shown part or the title holds or the words
the theme's stop-word filter would drop anyway.
"""

from __future__ import annotations

import html
import re

# Spellings a reader may type for one thing. The index splits words on spaces and hyphens only, and a
# query word matches the start of an indexed word, so each form a page lacks is added to it.
VARIANTS = (
    ("start-up", "startup"), ("set-up", "setup"), ("real-time", "realtime"), ("on-device", "ondevice"),
    ("kv cache", "kv-cache", "kvcache", "kv_cache"), ("key-value cache", "kv cache"),
    ("text-to-speech", "tts"), ("vision-language-action", "vla"), ("speech-to-text", "asr", "stt"),
    ("raspberry pi", "raspberrypi", "rpi"), ("int4", "4-bit", "4bit"), ("int8", "8-bit", "8bit"),
    ("behaviour", "behavior"), ("licence", "license"), ("colour", "color"), ("analyse", "analyze"),
)
_UK_US = re.compile(r"\b(\w{3,}?)(is|iz)(ation|ations|e|ed|es|er|ers|ing)\b")
_FORMS = [(form, group) for group in VARIANTS for form in group]

# A path or file name inside a text's code spans: something/like.this or like_this.py.
_CODE = re.compile(r"<code>(.*?)</code>", re.S)
_FILE = re.compile(r"[\w./-]*\w\.[A-Za-z][\w]{0,5}\b")

CLAIMS_INDEX = "search_claims.json"  # beside search_index.json; its name is written in search-later.js too
SHOWN_PAGE = 400  # characters of a page section's text a result shows; the theme shows all it is given
SHOWN_CLAIM = 200  # of a claim's: its first sentence or two, the page holds the rest
PAGE_BOOST = 2  # a page's own entry and its sections, against 1 for a claim
TOPIC_BOOST = 1000  # as the theme weighs a title


def variant_words(text: str) -> set[str]:
    """The other spellings of what `text` (plain or HTML) says, lower case."""
    lower = html.unescape(re.sub(r"<[^>]+>", " ", text)).lower()
    words: set[str] = set()
    for form, group in _FORMS:
        if re.search(r"(?<![\w-])" + re.escape(form) + r"(?![\w-])", lower):
            words.update(other for other in group if other != form)
    for stem, letter, ending in _UK_US.findall(lower):
        if ending.startswith("ation") or stem in _ISE_STEMS:
            words.add(stem + ("iz" if letter == "is" else "is") + ending)
    return words - set(lower.split())


# Verbs spelt -ise in British English whose -ize form a reader may type (besides every -isation noun).
_ISE_STEMS = {"quant", "optim", "initial", "serial", "normal", "custom", "special", "minim", "maxim", "util",
              "tokens", "recogn", "summar", "real", "central", "standard", "organ", "synchron", "parallel"}


def file_words(names: list[str], extensions: bool = True) -> set[str]:
    """For each file path or symbol its last component, which a reader types without the folders or the
    class (`vllm_omni/patch.py` -> `patch.py`, `Net::load_param` -> `load_param`, `Runner.step` -> `step`),
    and with `extensions` a file's extension (`claims.csv` -> `csv`)."""
    words: set[str] = set()
    for name in names:
        last = re.split(r"::|/", name.strip().lower().removesuffix("()"))[-1]
        if "." in last and not _FILE.fullmatch(last):  # a dotted symbol
            last = last.rsplit(".", 1)[-1]
        words.add(last)
        if extensions and _FILE.fullmatch(last):
            words.add(last.rsplit(".", 1)[-1])
    return {word for word in words if word}


def code_files(text: str) -> list[str]:
    """The file paths and names written in `text`'s code spans (HTML)."""
    found = []
    for span in _CODE.findall(text):
        found.extend(match for match in _FILE.findall(html.unescape(span)) if "/" in match or "." in match)
    return found


def _tokens(text: str) -> set[str]:
    """The words the index holds for `text`, as the theme splits them (spaces and hyphens), lower case."""
    return set(re.split(r"[\s\-]+", html.unescape(re.sub(r"<[^>]+>", " ", text)).lower()))


# The English stop words of lunr, the theme's search library (its stopWordFilter, which the index's
# pipeline keeps): a word among them is never found, so the words that stand for a cut text leave it out.
_STOP = set("""a able about across after all almost also am among an and any are as at be because been but by
can cannot could dear did do does either else ever every for from get got had has have he her hers him his how
however i if in into is it its just least let like likely may me might most must my neither no nor not of off
often on only or other our own rather said say says she should since so some than that the their them then
there these they this tis to too twas us wants was we were what when where which while who whom why will with
would yet you your""".split())
_EDGE = "\"'()[]{}<>,;:!?.…“”‘’*"  # stripped from a word's ends: a query word matches the start of a word
_BLOCKS = re.compile(r"<(/?)(?:ul|ol)>|</(?:p|pre)>")  # where a top-level block may end, lists counted


def shortened(text: str, limit: int) -> tuple[str, str]:
    """`text` (an entry's HTML) as a result shows it, and the part left out: whole top-level blocks up to
    `limit` characters, or, when the first block alone is longer, its words up to `limit` as plain text."""
    if len(text) <= limit:
        return text, ""
    cut = depth = 0
    for match in _BLOCKS.finditer(text):
        if match.end() > limit:
            break
        if match.group(1) is not None:  # a list opens or closes
            depth += -1 if match.group(1) else 1
        if depth == 0:
            cut = match.end()
    if cut:
        return text[:cut], text[cut:]
    plain_text = " ".join(html.unescape(re.sub(r"<[^>]+>", " ", text)).split())
    head = plain_text[:limit].rsplit(" ", 1)[0]
    return f"<p>{html.escape(head, quote=False)} …</p>", plain_text[len(head):]


def _distinct_words(text: str) -> set[str]:
    """`text`'s words (HTML or plain) as a query finds them, lower case, without stop words."""
    words = {word.strip(_EDGE) for word in _tokens(text)}
    return {word for word in words if word and word not in _STOP and any(ch.isalnum() for ch in word)}


def with_search_words(index: dict, topics: dict[str, list[str]], cited: dict[str, list[str]]) -> dict:
    """`index` (the theme's search_index.json) with the two fields declared and filled, long texts cut,
    and pages weighed above claims. `topics`: a page's location -> its keywords; `cited`: a claim entry's
    location -> the files and symbols its cites name. A claim entry is one whose location is in `cited`.
    A title's other spellings weigh as the title (`topics`), a text's as the text (`words`); a word the
    entry already shows is not repeated."""
    index["config"]["fields"]["words"] = {"boost": 1}
    index["config"]["fields"]["topics"] = {"boost": TOPIC_BOOST}
    for doc in index["docs"]:
        claim = doc["location"] in cited
        title, text = doc.get("title", ""), doc.get("text", "")
        doc["text"], rest = shortened(text, SHOWN_CLAIM if claim else SHOWN_PAGE)
        held = _tokens(title + " " + doc["text"])
        keywords = topics.get(doc["location"], [])
        heading = set(keywords) | ((variant_words(title) | variant_words(" ".join(keywords))) - held)
        files = file_words(code_files(title + " " + text)) | file_words(cited.get(doc["location"], []), extensions=False)
        words = (variant_words(text) | files | _distinct_words(rest)) - held - heading
        if heading:
            doc["topics"] = html.escape(" ".join(sorted(heading)), quote=False)
        if words:
            doc["words"] = html.escape(" ".join(sorted(words)), quote=False)
        if not claim:
            doc["boost"] = PAGE_BOOST
    return index


def split_claims(index: dict, cited: dict[str, list[str]]) -> tuple[dict, dict]:
    """`index` as two: the pages' (its config and every entry not a claim's), which the first search
    waits for, and the claims' entries alone, which search-later.js adds to it later."""
    claims = [doc for doc in index["docs"] if doc["location"] in cited]
    return {**index, "docs": [doc for doc in index["docs"] if doc["location"] not in cited]}, {"docs": claims}
