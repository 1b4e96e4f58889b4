"""`citecheck recipes`: the git recipes in claims' notes and scopes, re-run at the pin.

The demo upstream's pin has src/net.cpp (Net::load, Net::forward) and src/kernels/ops.c (run_op).
"""

from __future__ import annotations

import pytest

from citecheck.cli import main
from upstream import SECOND_TREE, make_upstream

CLAIMS = """
- id: demo/found
  label: inferred
  dimension: kind.category
  text: The network has a loader.
  note: Found with `git grep -n -E 'Net::(load|forward)' PIN -- src/`.
- id: demo/announced
  label: inferred
  dimension: kind.unit-of-work
  absence: true
  text: Nothing here schedules requests.
  note: "`git grep -l -i scheduler_queue -- src` finds nothing at the pin."
- id: demo/stale
  label: inferred
  dimension: kernel.operators
  text: The kernels add numbers.
  scope: "Read with `git grep -n 'run_op|add_op' -- src/kernels`: the one kernel file."
"""


def _run(demo_project, demo, claims, capsys, *extra):
    root = demo_project({"demo/kind.yaml": claims})
    code = main(["recipes", "--root", str(root), "--repo", f"demo={demo[0]}", *extra])
    return code, capsys.readouterr()


def test_a_recipe_that_finds_nothing_unannounced_is_listed_with_file_line_and_claim(demo_project, demo, capsys):
    code, out = _run(demo_project, demo, CLAIMS, capsys)
    assert code == 1
    listed = [line for line in out.out.splitlines() if not line.startswith("citecheck recipes:")]
    # basic regular expressions take `|` literally: the stale recipe, not the other two
    assert listed == ["claims/demo/kind.yaml:12: demo/stale: scope: finds nothing, unannounced: "
                      "git grep -n 'run_op|add_op' -- src/kernels"]
    assert out.out.splitlines()[-1] == ("citecheck recipes: 3 recipes, 3 ran (1 find something, 1 find nothing as "
                                        "their sentence says), 0 not runnable, 0 failed, 1 find nothing unannounced")


def test_the_fixed_recipe_passes_and_all_lists_every_outcome(demo_project, demo, capsys):
    fixed = CLAIMS.replace("`git grep -n 'run_op|add_op'", "`git grep -n -E 'run_op|add_op'")
    code, out = _run(demo_project, demo, fixed, capsys, "--all")
    assert code == 0
    assert "demo/found: note: found (2 lines)" in out.out and "demo/stale: scope: found (1 lines)" in out.out
    assert "demo/announced: note: nothing" in out.out


@pytest.mark.parametrize("recipe", [
    "git grep -O'touch {marker}' Net -- src",            # runs a pager command
    "git grep --open-files-in-pager='touch {marker}' Net",
    "git show --output={marker} PIN:src/net.cpp",
    "git grep -n Net -- src | tee {marker}",
    "git ls-tree --format=x PIN",
])
def test_a_recipe_is_data_it_never_reaches_git_as_an_option_or_a_shell(demo_project, demo, capsys, tmp_path, recipe):
    marker = tmp_path / "ran"
    claims = CLAIMS.replace("git grep -n -E 'Net::(load|forward)' PIN -- src/", recipe.format(marker=marker))
    code, out = _run(demo_project, demo, claims, capsys, "--all")
    assert "demo/found: note: not runnable" in out.out
    assert not marker.exists()


def test_a_recipe_after_another_engines_pin_runs_in_that_engines_tree(demo_project, demo, capsys, tmp_path):
    other, shas = make_upstream(tmp_path / "other", [{"lib/only_here.py": "def only_here():\n    pass\n"}])
    root = demo_project({"demo/kind.yaml": f"""
- id: demo/elsewhere
  label: inferred
  dimension: kind.category
  text: The other engine defines a function.
  scope: "The other engine at {shas[0][:8]}: `git grep -n only_here` shows it."
"""}, )
    engines = (root / "claims" / "engines.yaml").read_text().replace("0" * 40, shas[0])
    (root / "claims" / "engines.yaml").write_text(engines)
    code = main(["recipes", "--root", str(root), "--repo", f"demo={demo[0]}", "--repo", f"other={other}", "--all"])
    assert code == 0 and "demo/elsewhere: scope: found (1 lines)" in capsys.readouterr().out


def test_an_unknown_engine_is_a_usage_error(demo_project, demo, capsys):
    code, out = _run(demo_project, demo, CLAIMS, capsys, "--engine", "nosuch")
    assert code == 2 and "unknown engine nosuch" in out.err
