"""Finding symbols: definitions first, then declarations, then mentions outside comments."""

import pytest

from citecheck.errors import ContainsMissing, SymbolNotFound
from citecheck.gitdir import Blob
from citecheck.resolve import Resolver
from upstream import CMAKE, NET_CPP, NET_H, OPS_C, README, SCHED_PY


def resolve(path, text, symbol, contains=None):
    return Resolver().resolve_symbol(Blob(path, "sha-" + path, text.encode()), symbol, contains)


@pytest.mark.parametrize(
    "path, text, symbol, lines, kind",
    [
        ("src/net.h", NET_H, "Net", (4, 8), "definition"),  # despite the export macro in the class head
        ("src/net.h", NET_H, "demo::Net", (4, 8), "definition"),
        ("src/net.h", NET_H, "Net::load", (6, 6), "declaration"),
        ("src/net.h", NET_H, "DEMO_VERSION", (2, 2), "definition"),
        ("src/net.h", NET_H, "Backend::GPU", (9, 9), "definition"),
        ("src/net.cpp", NET_CPP, "Net::load", (4, 7), "definition"),
        ("src/net.cpp", NET_CPP, "demo::Net::forward", (9, 12), "definition"),
        ("src/ops.c", OPS_C, "op", (1, 7), "definition"),
        ("src/ops.c", OPS_C, "OP_MUL", (4, 4), "definition"),
        ("src/ops.c", OPS_C, "run_op", (9, 12), "definition"),
        ("engine/sched.py", SCHED_PY, "Scheduler", (10, 20), "definition"),  # decorators included
        ("engine/sched.py", SCHED_PY, "Scheduler.schedule", (18, 20), "definition"),
        ("engine/sched.py", SCHED_PY, "Scheduler.Queue.push", (15, 16), "definition"),
        ("engine/sched.py", SCHED_PY, "Scheduler.policy", (12, 12), "definition"),
        ("engine/sched.py", SCHED_PY, "MAX_BATCH", (3, 3), "definition"),
        ("CMakeLists.txt", CMAKE, "demo_add_layer", (3, 3), "mention"),
        ("src/net.cpp", NET_CPP, "open_file", (6, 6), "mention"),
    ],
)
def test_symbols_resolve_to_their_definition_range(path, text, symbol, lines, kind):
    found = resolve(path, text, symbol)
    assert (found.lines, found.kind) == (lines, kind)


def test_a_name_only_in_a_comment_is_not_found():
    with pytest.raises(SymbolNotFound, match="ghost_symbol is not in src/net.cpp outside comments"):
        resolve("src/net.cpp", NET_CPP, "ghost_symbol")
    with pytest.raises(SymbolNotFound):
        resolve("CMakeLists.txt", CMAKE, "old_target")


def test_identifier_bounds_are_respected():
    with pytest.raises(SymbolNotFound):
        resolve("src/ops.c", OPS_C, "OP_AD")


def test_contains_is_checked_inside_the_definition_only():
    assert resolve("src/net.cpp", NET_CPP, "Net::load", contains="open_file").lines == (4, 7)
    assert resolve("engine/sched.py", SCHED_PY, "Scheduler", contains="register").lines == (10, 20)
    with pytest.raises(ContainsMissing, match="'open_file' does not occur in Net::forward"):
        resolve("src/net.cpp", NET_CPP, "Net::forward", contains="open_file")


def test_contains_needs_a_definition_not_a_mention():
    with pytest.raises(ContainsMissing, match="only mentioned"):
        resolve("CMakeLists.txt", CMAKE, "demo_add_layer", contains="Conv")


def test_phrases_match_with_white_space_folded():
    found = Resolver().resolve_phrase(Blob("README.md", "r", README.encode()), "a small inference engine")
    assert (found.lines, found.kind) == ((3, 4), "phrase")
    with pytest.raises(SymbolNotFound, match="phrase 'a large engine' is not in README.md"):
        Resolver().resolve_phrase(Blob("README.md", "r", README.encode()), "a large engine")


def test_deprecation_wrappers_and_export_macros_do_not_hide_declarations():
    header = (
        "#define API\n"
        "API int keep(int a);\n"
        "GGML_API int ggml_thing(int a);\n"
        "LLAMA_API DEPRECATED(int old_call(int a),\n"
        "    \"use keep instead\");\n"
        "GGML_API int after_old(void);\n"
    )
    assert resolve("x.h", header, "old_call").lines == (4, 5)
    assert resolve("x.h", header, "after_old").kind == "declaration"
    assert resolve("x.h", header, "ggml_thing").kind == "declaration"


def test_definitions_the_grammar_cannot_read_are_found_by_brace_matching():
    objective_c = (
        "// lib_init(void) { in a comment }\n"
        "lib_t lib_init(dev_t dev) {\n"
        "    id<MTLLibrary> library = nil;\n"
        "    if (dev) { library = [dev newLibraryWithSource:src]; }\n"
        "    return library;\n"
        "}\n"
    )
    found = resolve("ggml-metal-device.m", objective_c, "lib_init", contains="newLibraryWithSource")
    assert (found.lines, found.kind) == ((2, 6), "definition")


def test_comments_anywhere_are_masked_including_inside_initialisers_and_bodies():
    source = (
        "static const char* names[] = {\n"
        "    \"a\", // hidden_in_initialiser\n"
        "};\n"
        "int f() {\n"
        "    /* hidden_in_body */ return 0;\n"
        "}\n"
    )
    for word in ("hidden_in_initialiser", "hidden_in_body"):
        with pytest.raises(SymbolNotFound):
            resolve("x.cpp", source, word)
    with pytest.raises(SymbolNotFound):
        resolve("engine/sched.py", SCHED_PY + "\n# hidden_in_python_comment\n", "hidden_in_python_comment")


def test_a_definition_the_parser_cut_short_extends_to_its_closing_brace(monkeypatch):
    """tree-sitter, recovering from an error inside a body (at the pins: `#if` blocks in ExecuTorch's
    `Method::set_input`), can end a function early; the resolver then follows the braces."""
    from dataclasses import replace

    from citecheck import resolve
    from citecheck.gitdir import Blob

    source = b"int Net::run(int n)\n{\n    if (n) {\n        return 1;\n    }\n    return 0;\n}\n"
    parse = resolve.parse_source

    def cut_short(path, data):
        parsed = parse(path, data)
        parsed.definitions = [replace(d, end=d.start + 30, lines=(1, 3), partial=True) for d in parsed.definitions]
        return parsed

    monkeypatch.setattr(resolve, "parse_source", cut_short)
    found = resolve.Resolver().resolve_symbol(Blob("net.cpp", "0" * 40, source), "Net::run", contains="return 0")
    assert found.lines == (1, 7) and found.kind == "definition"


def test_mask_blanks_every_span_keeping_newlines_overlaps_included():
    """mask() is built from slices: it must blank exactly what blanking one character at a time does."""
    import random

    from citecheck.textsearch import mask

    def one_at_a_time(text, spans):
        chars = list(text)
        for start, end in spans:
            for index in range(start, min(end, len(chars))):
                if chars[index] != "\n":
                    chars[index] = " "
        return "".join(chars)

    rng = random.Random(31)
    for _ in range(2000):
        text = "".join(rng.choice("ab\n /*") for _ in range(rng.randint(0, 50)))
        spans = [(rng.randint(0, 60), rng.randint(0, 60)) for _ in range(rng.randint(0, 5))]
        assert mask(text, spans) == one_at_a_time(text, spans), (text, spans)
