"""CI integration: the workflows and pre-commit files validate offline, the github and junit reports of
citecheck and claims lint say exactly what they should, the json report follows its schema, and an
internal error is a message with exit code 3."""

import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import jsonschema
import pytest
import yaml

import citecheck.cli
import claimtool.cli
from citecheck.report import SCHEMA, annotation_path, escape_data, escape_property, junit_document, workflow_command
from upstream import PROJECT

WORKFLOWS = sorted((PROJECT / ".github" / "workflows").glob("*.yml"))
BIN = Path(sys.executable).parent
# Any attempt to reach the network goes to a closed port and fails: the validators must work offline.
OFFLINE = {"HTTP_PROXY": "http://127.0.0.1:9", "HTTPS_PROXY": "http://127.0.0.1:9", "NO_PROXY": "",
           "http_proxy": "http://127.0.0.1:9", "https_proxy": "http://127.0.0.1:9", "no_proxy": ""}


def tool(name: str, *args: str, env: dict | None = None, cwd: Path = PROJECT) -> subprocess.CompletedProcess:
    executable = BIN / name if (BIN / name).exists() else shutil.which(name)
    assert executable, f"{name} is not installed: run scripts/setup.sh"
    return subprocess.run([str(executable), *args], cwd=cwd, capture_output=True, text=True, timeout=120,
                          env={**os.environ, **OFFLINE, **(env or {})})


def load_workflow(path: Path) -> dict:
    data = yaml.safe_load(path.read_text())
    data["on"] = data.pop(True, data.get("on"))  # YAML 1.1 reads the key `on` as true
    return data


# ---- workflows --------------------------------------------------------------------------------

def test_workflows_validate_against_the_bundled_github_workflow_schema():
    assert {p.name for p in WORKFLOWS} == {"ci.yml", "upstream.yml", "pages.yml", "lock.yml"}
    done = tool("check-jsonschema", "--builtin-schema", "vendor.github-workflows", *map(str, WORKFLOWS))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "ok -- validation done" in done.stdout


def test_a_broken_workflow_fails_validation(tmp_path):
    broken = tmp_path / "ci.yml"
    broken.write_text((PROJECT / ".github/workflows/ci.yml").read_text().replace("runs-on:", "runs_on:"))
    done = tool("check-jsonschema", "--builtin-schema", "vendor.github-workflows", str(broken))
    assert done.returncode == 1
    assert "'runs-on' is a required property" in done.stdout


USES = re.compile(r"^\s*(?:-\s+)?uses:\s*(\S+)(.*)$")


def test_every_action_is_pinned_by_full_commit_sha_with_a_version_comment():
    seen = 0
    for path in WORKFLOWS:
        for number, line in enumerate(path.read_text().splitlines(), 1):
            match = USES.match(line)
            if not match:
                continue
            seen += 1
            action, rest = match.groups()
            assert re.fullmatch(r"[\w.-]+/[\w./-]+@[0-9a-f]{40}", action), f"{path.name}:{number}: {action} not pinned by SHA"
            assert re.fullmatch(r"\s+# v\d+\.\d+\.\d+", rest), f"{path.name}:{number}: no `# vX.Y.Z` comment"
    assert seen >= 10


def _runs(workflow: dict) -> str:
    return "\n".join(step.get("run", "") for job in workflow["jobs"].values() for step in job.get("steps", []))


def _uses(workflow: dict) -> list[str]:
    return [step["uses"].split("@")[0] for job in workflow["jobs"].values() for step in job.get("steps", []) if "uses" in step]


EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


@pytest.mark.parametrize("path", WORKFLOWS, ids=lambda p: p.name)
def test_workflow_scripts_parse_and_references_resolve(path):
    """What the schema cannot see: every `run:` script is valid bash (expressions stood in for), every
    `needs` names a job, and every `steps.ID` / `needs.JOB` an expression reads exists."""
    workflow = load_workflow(path)
    jobs = workflow["jobs"]
    for job_id, job in jobs.items():
        needs = job.get("needs", [])
        needs = [needs] if isinstance(needs, str) else needs
        assert set(needs) <= set(jobs) - {job_id}, f"{job_id}: needs {needs}"
        step_ids = {step["id"] for step in job.get("steps", []) if "id" in step}
        text = yaml.safe_dump(job)
        for expression in EXPRESSION.findall(text):
            for step_id in re.findall(r"\bsteps\.([\w-]+)\.", expression):
                assert step_id in step_ids, f"{job_id}: no step {step_id} for {expression}"
            for needed in re.findall(r"\bneeds\.([\w-]+)\.", expression):
                assert needed in needs, f"{job_id}: {expression} reads a job it does not need"
        for step in job.get("steps", []):
            if "run" in step:
                script = EXPRESSION.sub("placeholder", step["run"])
                done = subprocess.run(["bash", "-n", "-c", script], capture_output=True, text=True)
                assert done.returncode == 0, f"{job_id}: {step.get('name', step['run'][:40])}: {done.stderr}"


def test_upstream_matrix_lists_the_engines_that_have_claims(tmp_path):
    """The `engines` job's script, run here with pip stubbed out: it lists engines with records."""
    upstream = load_workflow(PROJECT / ".github/workflows/upstream.yml")
    script = next(s["run"] for s in upstream["jobs"]["engines"]["steps"] if s.get("id") == "list")
    stub = tmp_path / "bin" / "python"
    stub.parent.mkdir()
    stub.write_text(f'#!/bin/sh\n[ "$1 $2" = "-m pip" ] && exit 0\nexec {sys.executable} "$@"\n')
    stub.chmod(0o755)
    output = tmp_path / "output"
    done = subprocess.run(["bash", "-e", "-c", script], cwd=PROJECT, capture_output=True, text=True, timeout=60,
                          env={**os.environ, "PATH": f"{stub.parent}:{os.environ['PATH']}", "GITHUB_OUTPUT": str(output)})
    assert done.returncode == 0, done.stderr
    name, value = output.read_text().strip().split("=", 1)
    engines = yaml.safe_load((PROJECT / "claims/engines.yaml").read_text())["engines"]
    expected = [e["id"] for e in engines if any((PROJECT / "claims" / e["id"]).glob("**/*.yaml"))]
    assert name == "engines" and json.loads(value) == expected and expected


def test_ci_runs_the_readme_test_command_on_every_push_and_pull_request():
    ci = load_workflow(PROJECT / ".github/workflows/ci.yml")
    assert {"push", "pull_request"} <= set(ci["on"]) and ci["on"]["push"] is None  # every branch
    assert "bash scripts/test.sh" in _runs(ci)
    assert "bash scripts/test.sh" in (PROJECT / "README.md").read_text()
    assert "--format github" in _runs(ci)


def test_upstream_workflow_fetches_every_pin_and_uploads_a_drift_report():
    upstream = load_workflow(PROJECT / ".github/workflows/upstream.yml")
    assert set(upstream["on"]) == {"schedule", "workflow_dispatch"}
    assert upstream["on"]["schedule"][0]["cron"]
    runs = _runs(upstream)
    assert '.venv/bin/citecheck --fetch --no-write --no-cache --engine "$ENGINE" --format github' in runs
    assert 'citecheck drift --engine "$ENGINE" --to "$head" --fetch --format json' in runs
    assert "actions/upload-artifact" in _uses(upstream)
    assert upstream["jobs"]["upstream"]["strategy"]["fail-fast"] is False


def test_the_workflows_that_publish_or_refresh_results_run_without_caches():
    pages = load_workflow(PROJECT / ".github/workflows/pages.yml")
    upstream = load_workflow(PROJECT / ".github/workflows/upstream.yml")
    assert pages["jobs"]["build"]["env"]["ENGINEKB_CACHE"] == "off"
    assert upstream["jobs"]["upstream"]["env"]["ENGINEKB_CACHE"] == "off"
    resolving = [line for line in _runs(upstream).splitlines() if "citecheck --fetch" in line]
    assert resolving and all("--no-cache" in line for line in resolving)


def test_pages_workflow_publishes_the_strict_build_from_main():
    pages = load_workflow(PROJECT / ".github/workflows/pages.yml")
    assert pages["on"]["push"] == {"branches": ["main"]}
    assert "mkdocs build --strict -d site" in _runs(pages)
    assert {"actions/upload-pages-artifact", "actions/deploy-pages"} <= set(_uses(pages))
    assert pages["jobs"]["deploy"]["permissions"] == {"pages": "write", "id-token": "write"}
    assert pages["permissions"] == {"contents": "read"}


# ---- pre-commit -------------------------------------------------------------------------------

def test_pre_commit_manifest_and_project_config_validate(tmp_path):
    env = {"PRE_COMMIT_HOME": str(tmp_path / "pre-commit")}
    done = tool("pre-commit", "validate-manifest", ".pre-commit-hooks.yaml", env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    done = tool("pre-commit", "validate-config", ".pre-commit-config.yaml", env=env)
    assert done.returncode == 0, done.stdout + done.stderr


def test_a_broken_manifest_fails_validation(tmp_path):
    broken = tmp_path / "hooks.yaml"
    broken.write_text((PROJECT / ".pre-commit-hooks.yaml").read_text().replace("entry:", "entrypoint:"))
    done = tool("pre-commit", "validate-manifest", str(broken), env={"PRE_COMMIT_HOME": str(tmp_path / "pc")})
    assert done.returncode == 1 and "entry" in done.stdout


def test_project_hooks_are_the_manifest_hooks_run_from_the_venv():
    offered = {hook["id"]: hook for hook in yaml.safe_load((PROJECT / ".pre-commit-hooks.yaml").read_text())}
    assert set(offered) == {"claims-lint", "citecheck-offline"}
    scripts = tomllib.loads((PROJECT / "pyproject.toml").read_text())["project"]["scripts"]
    assert {hook["entry"].split()[0] for hook in offered.values()} <= set(scripts)
    config = yaml.safe_load((PROJECT / ".pre-commit-config.yaml").read_text())
    local = {hook["id"]: hook for hook in config["repos"][0]["hooks"]}
    assert config["repos"][0]["repo"] == "local" and set(local) == set(offered)
    for hook_id, hook in local.items():
        assert hook["entry"] == ".venv/bin/" + offered[hook_id]["entry"]
        assert (hook["files"], hook["pass_filenames"]) == (offered[hook_id]["files"], offered[hook_id]["pass_filenames"])


# ---- README -----------------------------------------------------------------------------------

def test_the_maintainers_page_on_ci_shows_the_pre_commit_lines_and_a_real_workflow_excerpt():
    page = (PROJECT / "docs" / "maintainers.md").read_text()  # the one home of these words; the README links it
    assert "docs/maintainers.md" in (PROJECT / "README.md").read_text()
    section = page.split("\n## Use it in CI\n", 1)[1]
    assert "- id: claims-lint" in section and "- id: citecheck-offline" in section
    assert "--format github" in section and "--format junit" in section and "report.schema.json" in section
    blocks = re.findall(r"```yaml\n(.*?)```", section, re.DOTALL)
    excerpt = next(block for block in blocks if "run:" in block)
    ci = (PROJECT / ".github/workflows/ci.yml").read_text()
    for line in excerpt.splitlines():
        if line.strip() and not line.strip().startswith("#") and line.strip() != "...":
            assert line in ci.splitlines(), f"README excerpt line not in ci.yml: {line!r}"


# ---- github and junit reports -----------------------------------------------------------------

def test_workflow_commands_escape_data_and_properties():
    assert escape_data("100% done\r\nnext: a,b") == "100%25 done%0D%0Anext: a,b"
    assert escape_property("a:b,c%\n") == "a%3Ab%2Cc%25%0A"
    assert workflow_command("error", "x: 1%", file="a,b.yaml", line=3, title="t: u", col=None) == \
        "::error file=a%2Cb.yaml,line=3,title=t%3A u::x: 1%25"
    assert workflow_command("notice", "plain") == "::notice::plain"


def test_annotation_paths_are_relative_to_the_workspace_or_the_project(tmp_path, monkeypatch):
    target = tmp_path / "repo" / "kb" / "claims" / "a.yaml"
    monkeypatch.delenv("GITHUB_WORKSPACE", raising=False)
    assert annotation_path(target, tmp_path / "repo" / "kb") == "claims/a.yaml"
    monkeypatch.setenv("GITHUB_WORKSPACE", str(tmp_path / "repo"))
    assert annotation_path(target, tmp_path / "repo" / "kb") == "kb/claims/a.yaml"


FAILING = """\
- id: demo/bad
  label: verified
  dimension: kind.category
  text: t
  cites:
    - {file: src/net.cpp, symbol: Net::unload}
    - {file: src/net.cpp, symbol: Net::load, contains: "<100%, & more>"}
- id: demo/layers
  label: inferred
  dimension: kernel.operators
  text: Four layers are registered.
  count: {value: 4, how: {file: CMakeLists.txt, lines: '^demo_add_layer'}}
"""
CITE_REASON = ("symbol not found: Net::unload is not in src/net.cpp outside comments at this commit; "
               "unload occurs in no other file at this commit")
CONTAINS_REASON = "contains not found: '<100%, & more>' does not occur in Net::load (L4-L7) in src/net.cpp"
COUNT_REASON = "count mismatch: the claim says 4, the pin gives 3"


@pytest.fixture
def failing(demo_project, demo, monkeypatch):
    """A project with a failing cite, a failing contains and a failing count (in a file whose name
    holds a comma, which a workflow-command property must escape); the clock is stopped."""
    monkeypatch.delenv("GITHUB_WORKSPACE", raising=False)
    monkeypatch.setattr(citecheck.cli, "monotonic", lambda: 0.0)
    path, shas = demo
    project = demo_project({"demo/a,b.yaml": FAILING})

    def run(fmt, capsys):
        code = citecheck.cli.main(["--root", str(project), "--repo", f"demo={path}", "--format", fmt])
        return code, capsys.readouterr().out

    return run, shas[1]


def test_citecheck_github_annotates_each_failing_cite_and_count_on_its_line(failing, capsys):
    run, pin = failing
    code, out = run("github", capsys)
    assert code == 1
    assert out == (
        f"::error file=claims/demo/a%2Cb.yaml,line=6,title=citecheck%3A symbol not found::demo/bad: {CITE_REASON}\n"
        "::error file=claims/demo/a%2Cb.yaml,line=7,title=citecheck%3A contains not found::demo/bad: "
        "contains not found: '<100%25, & more>' does not occur in Net::load (L4-L7) in src/net.cpp\n"
        f"::error file=claims/demo/a%2Cb.yaml,line=12,title=citecheck%3A count mismatch::demo/layers: {COUNT_REASON}\n"
        f"demo @ {pin[:12]}: 2 claims, 2 cites, 1 counts: 0 ok, 3 failed\n"
        "citecheck against the repositories: FAILED, 0 ok, 3 failed, 0.0 s\n"
    )


def test_citecheck_junit_has_a_testsuite_per_engine_and_a_testcase_per_cite_and_count(failing, capsys):
    run, pin = failing
    code, out = run("junit", capsys)
    assert code == 1
    assert out == f"""\
<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="citecheck" tests="3" failures="3" errors="0" time="0.000">
  <testsuite name="demo" tests="3" failures="3" errors="0" skipped="0">
    <properties>
      <property name="commit" value="{pin}" />
      <property name="mode" value="repositories" />
    </properties>
    <testcase classname="demo/bad" name="cite src/net.cpp Net::unload" file="claims/demo/a,b.yaml" line="6">
      <failure type="symbol not found" message="{CITE_REASON}">claims/demo/a,b.yaml:6: demo/bad: {CITE_REASON}</failure>
    </testcase>
    <testcase classname="demo/bad" name="cite src/net.cpp Net::load" file="claims/demo/a,b.yaml" line="7">
      <failure type="contains not found" message="contains not found: '&lt;100%, &amp; more&gt;' does not occur in Net::load (L4-L7) in src/net.cpp">claims/demo/a,b.yaml:7: demo/bad: contains not found: '&lt;100%, &amp; more&gt;' does not occur in Net::load (L4-L7) in src/net.cpp</failure>
    </testcase>
    <testcase classname="demo/layers" name="count {{&quot;file&quot;:&quot;CMakeLists.txt&quot;,&quot;lines&quot;:&quot;^demo_add_layer&quot;}}" file="claims/demo/a,b.yaml" line="12">
      <failure type="count mismatch" message="{COUNT_REASON}">claims/demo/a,b.yaml:12: demo/layers: {COUNT_REASON}</failure>
    </testcase>
  </testsuite>
</testsuites>
"""
    document = ET.fromstring(out.split("\n", 1)[1])
    assert document.find(".//testcase[@line='7']/failure").text.endswith(CONTAINS_REASON)


def test_a_passing_cite_is_a_testcase_without_failure(demo_project, demo, capsys):
    path, _ = demo
    project = demo_project({"demo/a.yaml": FAILING.split("- id: demo/layers")[0].replace(
        "    - {file: src/net.cpp, symbol: Net::unload}\n", "").replace(', contains: "<100%, & more>"', "")})
    assert citecheck.cli.main(["--root", str(project), "--repo", f"demo={path}", "--format", "junit"]) == 0
    suite = ET.fromstring(capsys.readouterr().out.split("\n", 1)[1]).find("testsuite")
    assert (suite.get("tests"), suite.get("failures")) == ("1", "0")
    assert suite.find("testcase").get("name") == "cite src/net.cpp Net::load" and suite.find(".//failure") is None


def test_junit_stays_well_formed_with_characters_xml_cannot_hold():
    hostile = "a\x00b\x1b]]></failure><x>&\"'\n"
    text = junit_document("t", [("s", {"p": hostile}, [{"classname": hostile, "name": "n", "failure_type": hostile,
                                                         "failure_message": hostile, "failure_text": hostile}])], 1.5)
    failure = ET.fromstring(text.split("\n", 1)[1]).find(".//failure")
    assert failure.text == "a\\x00b\\x1b]]></failure><x>&\"'\n" and failure.get("message").startswith("a\\x00b")


LINT_PROBLEM = "label: 'maybe' is not one of ['verified', 'inferred', 'proposal', 'unknown', 'repo-reported', 'measured']"


@pytest.fixture
def bad_records(demo_project, monkeypatch):
    monkeypatch.delenv("GITHUB_WORKSPACE", raising=False)
    return demo_project({"demo/a.yaml": "- {id: demo/ok, label: unknown, dimension: kind.category, text: t}\n",
                         "demo/b.yaml": "- {id: demo/x, label: maybe, dimension: kind.category, text: t}\n"})


def test_claims_lint_github_annotates_the_record_line(bad_records, capsys):
    assert claimtool.cli.main(["--root", str(bad_records), "lint", "--format", "github"]) == 2
    out = capsys.readouterr()
    assert out.out == f"::error file=claims/demo/b.yaml,line=1,title=claims lint::demo/x: {LINT_PROBLEM}\n"
    assert out.err == "claims: 1 problem(s)\n"


def test_claims_lint_junit_has_a_testcase_per_records_file(bad_records, capsys):
    assert claimtool.cli.main(["--root", str(bad_records), "lint", "--format", "junit"]) == 2
    assert capsys.readouterr().out == f"""\
<?xml version="1.0" encoding="UTF-8"?>
<testsuites name="claims lint" tests="5" failures="1" errors="0">
  <testsuite name="claims" tests="3" failures="0" errors="0" skipped="0">
    <testcase classname="claims" name="claims/dimensions.yaml" file="claims/dimensions.yaml" />
    <testcase classname="claims" name="claims/engines.yaml" file="claims/engines.yaml" />
    <testcase classname="claims" name="claims/hardware.yaml" file="claims/hardware.yaml" />
  </testsuite>
  <testsuite name="demo" tests="2" failures="1" errors="0" skipped="0">
    <testcase classname="demo" name="claims/demo/a.yaml" file="claims/demo/a.yaml" />
    <testcase classname="demo" name="claims/demo/b.yaml" file="claims/demo/b.yaml" line="1">
      <failure type="invalid record" message="line 1: demo/x: {LINT_PROBLEM}">claims/demo/b.yaml:1: demo/x: {LINT_PROBLEM}</failure>
    </testcase>
  </testsuite>
</testsuites>
"""
    (bad_records / "claims/demo/b.yaml").unlink()
    assert claimtool.cli.main(["--root", str(bad_records), "lint", "--format", "junit"]) == 0
    assert 'tests="4" failures="0"' in capsys.readouterr().out


def test_citecheck_github_annotates_bad_records_too(bad_records, capsys):
    assert citecheck.cli.main(["--root", str(bad_records), "--offline", "--format", "github"]) == 2
    out = capsys.readouterr()
    assert out.out == f"::error file=claims/demo/b.yaml,line=1,title=citecheck%3A bad record::demo/x: {LINT_PROBLEM}\n"


# ---- json report and its schema ---------------------------------------------------------------

def _validate(report: dict) -> None:
    schema = json.loads(SCHEMA.read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft202012Validator(schema).validate(report)


def test_json_report_follows_its_schema_and_carries_badge_totals(demo_project, demo, capsys):
    path, shas = demo
    passing = FAILING.replace("    - {file: src/net.cpp, symbol: Net::unload}\n", "").replace(
        ', contains: "<100%, & more>"', "").replace("value: 4", "value: 3")
    project = demo_project({"demo/a.yaml": passing})
    assert citecheck.cli.main(["--root", str(project), "--repo", f"demo={path}", "--format", "json"]) == 0
    report = json.loads(capsys.readouterr().out)
    _validate(report)
    assert report["summary"]["demo"] | {"kinds": None} == {
        "commit": shas[1], "claims": 2, "cites": 1, "counts": 1, "ok": 2, "failed": 0, "status": "passed", "kinds": None}
    total = report["summary"]["total"]
    assert (total["ok"], total["failed"], total["status"], total["claims"], total["engines_failed"]) == (2, 0, "passed", 2, [])
    assert report["badge"] == {"schemaVersion": 1, "label": "citecheck", "message": "2 ok", "color": "brightgreen"}
    # Offline with a changed count and a cite the lock lacks: failures and a stale entry, same schema.
    claims_file = project / "claims/demo/a.yaml"
    claims_file.write_text(claims_file.read_text().replace("value: 3", "value: 5").replace("Net::load}", "Net::forward}"))
    assert citecheck.cli.main(["--root", str(project), "--offline", "--format", "json"]) == 1
    report = json.loads(capsys.readouterr().out)
    _validate(report)
    assert {r["failure"] for r in report["results"]} == {"not in lock", "count mismatch", "stale lock entry"}
    assert report["summary"]["total"]["engines_failed"] == ["demo"] and report["summary"]["demo"]["status"] == "failed"
    assert report["badge"] == {"schemaVersion": 1, "label": "citecheck", "message": "3 failed", "color": "red"}


# ---- internal errors --------------------------------------------------------------------------

def _boom(*args, **kwargs):
    raise RuntimeError("boom")


@pytest.mark.parametrize("program, target, argv", [
    ("citecheck", "citecheck.cli.check_offline", ["--offline"]),
    ("citecheck", "citecheck.cli.read_lock", ["--offline", "--format", "github"]),
    ("claims", "claimtool.cli.load_catalog", ["lint"]),
    ("claims", "claimtool.stats.compute_stats", ["stats"]),  # imported by the command that uses it
])
def test_an_internal_error_is_a_message_and_exit_3_without_a_traceback(demo_project, monkeypatch, capsys, program, target, argv):
    project = demo_project({"demo/a.yaml": "- {id: demo/ok, label: unknown, dimension: kind.category, text: t}\n"})
    monkeypatch.setattr(target, _boom)
    monkeypatch.delenv("ENGINEKB_TRACEBACK", raising=False)
    main = citecheck.cli.main if program == "citecheck" else claimtool.cli.main
    assert main(["--root", str(project), *argv]) == 3
    out = capsys.readouterr()
    assert out.err.startswith(f"{program}: internal error: RuntimeError: boom\n")
    assert "please report it" in out.err.lower() and "ENGINEKB_TRACEBACK=1" in out.err
    assert "Traceback" not in out.err + out.out
    monkeypatch.setenv("ENGINEKB_TRACEBACK", "1")
    assert main(["--root", str(project), *argv]) == 3
    assert "Traceback (most recent call last)" in capsys.readouterr().err


def test_an_internal_error_exits_3_from_a_separate_process(demo_project):
    """The same in a process of its own, as a CI log shows it: stderr has no traceback, exit code 3."""
    project = demo_project({"demo/a.yaml": "- {id: demo/ok, label: unknown, dimension: kind.category, text: t}\n"})
    code = ("import sys, citecheck.cli as cli\n"
            "def boom(*a, **k): raise KeyError('engine')\n"
            "cli.check_offline = boom\n"
            f"sys.exit(cli.main(['--root', {str(project)!r}, '--offline']))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60,
                          env={k: v for k, v in os.environ.items() if k != "ENGINEKB_TRACEBACK"})
    assert done.returncode == 3
    assert done.stderr.startswith("citecheck: internal error: KeyError: 'engine'\n") and "Traceback" not in done.stderr


def test_citecheck_drift_is_reached_through_the_citecheck_command(demo_project, demo, capsys):
    """The upstream workflow calls `citecheck drift --engine E --to REV --fetch --format json`."""
    path, shas = demo
    project = demo_project({"demo/a.yaml": "- id: demo/net\n  label: verified\n  dimension: kind.category\n  text: t\n"
                                           "  cites:\n    - {file: src/net.cpp, symbol: Net::load}\n"})
    argv = ["drift", "--root", str(project), "--engine", "demo", "--repo", f"demo={path}", "--format", "json"]
    assert citecheck.cli.main(argv + ["--to", shas[1]]) == 0  # the pin against itself: nothing drifts
    json.loads(capsys.readouterr().out)
    assert citecheck.cli.main(argv + ["--to", "no-such-branch"]) == 2
