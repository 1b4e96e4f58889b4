"""Which claims generalise, and so must say in `scope` how far the generalisation was checked.

A claim usually reads one path correctly and then widens it to the whole category: "only", "every
backend", "the GPU path", "goes through", a list or count that looks complete. Any sibling path (another
backend, build flag, caller, platform) can make that false, so a Verified claim that generalises says
which siblings were read and how, in `scope`. The patterns were tuned on the 1,205 Verified claims of
December 2026: they flag 284 of them (24%), and leave out the distributive "each layer ..." and
the conditional "only when ...", which describe one path rather than a category.
"""

from __future__ import annotations

import re
import unicodedata

CODE_SPAN = re.compile(r"`[^`]*`")
# What a generalisation ranges over: the kinds of sibling paths a claim can overlook.
CATEGORY = (r"(?:backends?|delegates?|platforms?|paths?|callers?|runtimes?|targets?|variants?|devices?|"
            r"architectures?|formats?|famil(?:y|ies)|models?|kernels?|ops|operators?|builds?|engines?|APIs?|"
            r"entry points?|routes?|endpoints?|OS|operating systems?|GPUs?|CPUs?|NPUs?|accelerators?|"
            r"providers?|implementations?|front-?ends?|converters?|quanti[sz]ations?|types?|dtypes?|schemes?|"
            r"modes?|stages?|workers?|processes|methods?)")
NUMBER = r"(?:two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|\d+)"
FILLER = r"(?:in|if|is|of|per|the|unless|and|or)"  # "132 in the model" is a value, not a list of models
CONDITION = r"(?:when|if|while|after|before|once|at|on|in|with|for|during|until|as|to)"

PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("exclusive", re.compile(rf"\b(?:the only [\w-]+|only (?!{CONDITION}\b)[\w-]+)", re.IGNORECASE)),
    ("universal", re.compile(rf"\b(?:every|all|any)\s+(?:(?:of the|the|its|other|in-tree|supported)\s+)?"
                             rf"(?:[\w-]+\s+){{0,2}}?{CATEGORY}\b", re.IGNORECASE)),
    ("absolute", re.compile(r"\b(?:never|always|no other|nowhere|none of the|in every case|regardless of)\b",
                            re.IGNORECASE)),
    ("the mechanism", re.compile(r"\b(?:is how|goes through|go through|pass(?:es)? through|implicit(?:ly)?|"
                                 r"is the way)\b|\bthe (?:[\w-]+ ){0,2}(?:path|mechanism|route)\b", re.IGNORECASE)),
    ("complete count", re.compile(rf"\b{NUMBER} (?:(?!{FILLER}\b)[\w-]+ ){{0,2}}?{CATEGORY}\b", re.IGNORECASE)),
)
# For each pattern, words of which every match holds one (lower case): in ASCII text, where ignoring
# case is lowering it, a text holding none of them cannot match, and the pattern is not run at all.
NEEDS: dict[str, tuple[str, ...]] = {
    "exclusive": ("only ",),
    "universal": ("every", "all", "any"),
    "absolute": ("never", "always", "no other", "nowhere", "none of the", "in every case", "regardless of"),
    "the mechanism": ("is how", "through", "implicit", "is the way", "path", "mechanism", "route"),
    "complete count": tuple(f"{number} " for number in (*"0123456789", "two", "three", "four", "five", "six",
                                                        "seven", "eight", "nine", "ten", "eleven", "twelve")),
}


# Letters that render as Latin ones (Cyrillic, Greek), read as those: "every bаckend" with a Cyrillic а
# must not slip past the patterns. Compatibility forms (fullwidth ａｌｌ) are folded by NFKC first.
LOOK_ALIKES = str.maketrans("аеорсухіјѕԁӏАВЕКМНОРСТХІЈЅαβεικνορτυχΑΒΕΗΙΚΜΝΟΡΤΥΧΖ",
                            "aeopcyxijsdlABEKMHOPCTXIJSabeiknoptuxABEHIKMNOPTYXZ")


def generalisations(text: str, counted: bool = False) -> list[str]:
    """The phrases of `text` that generalise, each as 'kind: phrase'. Code spans are names, not prose.
    A claim with a `count` record has its number recomputed by a query, which is its scope already."""
    if not text.isascii():
        text = unicodedata.normalize("NFKC", text).translate(LOOK_ALIKES)
    prose = CODE_SPAN.sub(" x ", text)
    lowered = prose.lower() if prose.isascii() else None  # outside ASCII, case folding is re's own
    found = []
    for kind, pattern in PATTERNS:
        if kind == "complete count" and counted:
            continue
        if lowered is not None and not any(word in lowered for word in NEEDS[kind]):
            continue
        match = pattern.search(prose)
        if match:
            found.append(f"{kind}: {' '.join(match.group(0).split())!r}")
    return found
