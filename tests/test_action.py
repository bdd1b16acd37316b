"""The composite action and the CI workflow: schema-valid and injection-safe."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[1]
ACTION = ROOT / "action.yml"
WORKFLOWS = sorted((ROOT / ".github" / "workflows").glob("*.yml"))


def _check_jsonschema(schema: str, path: Path) -> None:
    exe = shutil.which("check-jsonschema")
    if exe is None:
        pytest.skip("check-jsonschema is not installed")
    result = subprocess.run(
        [exe, "--builtin-schema", schema, str(path)], capture_output=True, text=True, timeout=60
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_action_matches_schema():
    _check_jsonschema("vendor.github-actions", ACTION)


@pytest.mark.parametrize("workflow", WORKFLOWS, ids=lambda p: p.name)
def test_workflow_matches_schema(workflow):
    _check_jsonschema("vendor.github-workflows", workflow)


def _steps() -> list[dict]:
    return yaml.safe_load(ACTION.read_text(encoding="utf-8"))["runs"]["steps"]


def test_inputs_never_interpolated_into_scripts():
    for step in _steps():
        assert "${{" not in step.get("run", ""), step.get("name")


def test_every_run_step_has_a_shell():
    assert all("shell" in step for step in _steps() if "run" in step)


def test_sarif_upload_is_opt_in_and_guarded():
    action = yaml.safe_load(ACTION.read_text(encoding="utf-8"))
    assert action["inputs"]["sarif"]["default"] == "false"
    assert action["runs"]["using"] == "composite"
    assert "steps.sarif.outputs.sarif-file" in action["outputs"]["sarif-file"]["value"]
    (upload,) = [s for s in _steps() if "upload-sarif" in s.get("uses", "")]
    assert "inputs.sarif == 'true'" in upload["if"] and "always()" in upload["if"]


def test_ci_covers_python_versions_and_ruff():
    ci = yaml.safe_load((ROOT / ".github" / "workflows" / "ci.yml").read_text(encoding="utf-8"))
    assert ci["jobs"]["test"]["strategy"]["matrix"]["python-version"] == ["3.11", "3.12", "3.13"]
    commands = " ".join(s.get("run", "") for s in ci["jobs"]["lint"]["steps"])
    assert "ruff check" in commands and "ruff format --check" in commands
