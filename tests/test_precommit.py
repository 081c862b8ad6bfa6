"""The `chatschema-validate` pre-commit hook (.pre-commit-hooks.yaml), run by pre-commit itself on a
throwaway repository with a good and a bad file. pre-commit installs the hook from this checkout
(uncommitted changes included) into an environment of its own, so this needs PyPI access."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from tests.checkout_copy import copy_checkout

ROOT = Path(__file__).parent.parent
GOOD = [
    '{"role": "user", "content": "hi"}',
    '{"message_type": "assistant_message", "id": "m1", "date": "2024-01-01T00:00:00Z", "content": "hello"}',
]
BAD = ['{"role": "user", "content": "hi"}', '{"role": "bot", "content": "hi"}']
BRIDGIC = ['{"role": "user", "blocks": [{"block_type": "text", "text": "hi"}]}', '{"role": "user", "blocks": 3}']


def git(*args: str, cwd: Path) -> None:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@t",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@t",
    }
    subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True, env=env)


def throwaway(path: Path, files: dict[str, list[str]]) -> Path:
    path.mkdir()
    git("init", "-q", cwd=path)
    for name, lines in files.items():
        (path / name).write_text("".join(f"{line}\n" for line in lines), encoding="utf-8")
    git("add", ".", cwd=path)
    return path


def pre_commit(*args: str, cwd: Path, home: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PRE_COMMIT_HOME": str(home), "PRE_COMMIT_COLOR": "never"}
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", *args], cwd=cwd, capture_output=True, text=True, check=False, env=env
    )


def test_try_repo_passes_the_good_file_and_fails_the_bad_one(tmp_path: Path) -> None:
    repo = throwaway(tmp_path / "repo", {"good.jsonl": GOOD, "bad.jsonl": BAD, "notes.json": ['{"role": "bot"}']})
    home = tmp_path / "home"
    failed = pre_commit("try-repo", str(ROOT), "chatschema-validate", "--all-files", cwd=repo, home=home)
    assert failed.returncode == 1, failed.stdout + failed.stderr
    # one line for the bad message; the good file and the .json file (not matched by default) say nothing
    assert (
        "bad.jsonl:2: $: unknown role 'bot', expected one of 'system', 'user', 'assistant', 'tool' [docent/ChatMessage]"
        in failed.stdout
    )
    assert "good.jsonl" not in failed.stdout and "notes.json" not in failed.stdout
    passed = pre_commit("try-repo", str(ROOT), "chatschema-validate", "--files", "good.jsonl", cwd=repo, home=home)
    assert passed.returncode == 0, passed.stdout + passed.stderr
    assert "chatschema validate" in passed.stdout and "Passed" in passed.stdout


def test_schema_by_argument(tmp_path: Path) -> None:
    # What try-repo does, by hand, so the config can pass args: the checkout as it is, committed.
    hooks = tmp_path / "hooks"
    copy_checkout(hooks)
    git("init", "-q", cwd=hooks)
    git("add", ".", cwd=hooks)
    git("commit", "-q", "-m", "hooks", cwd=hooks)
    rev = subprocess.run(["git", "rev-parse", "HEAD"], cwd=hooks, capture_output=True, text=True, check=True).stdout
    repo = throwaway(tmp_path / "repo", {"chat.jsonl": BRIDGIC})
    (repo / ".pre-commit-config.yaml").write_text(
        f"repos:\n- repo: {hooks}\n  rev: {rev.strip()}\n  hooks:\n"
        "  - id: chatschema-validate\n    args: [--schema, bridgic/Message]\n",
        encoding="utf-8",
    )
    git("add", ".", cwd=repo)
    result = pre_commit("run", "--all-files", cwd=repo, home=tmp_path / "home")
    assert result.returncode == 1, result.stdout + result.stderr
    assert "chat.jsonl:2: $.blocks: 3 is not of type 'array'" in result.stdout
    assert "chat.jsonl:1" not in result.stdout


def test_every_shipped_sample_through_the_hook_reports_only_its_deliberate_bad_line(tmp_path: Path) -> None:
    """The hook's default, --schema auto, picks each family's message type: the bridgic and swarm
    samples (no Docent tag of their own) are judged as bridgic and swarm messages."""
    from chatschema.samples import samples

    files = {path.name: path.read_text(encoding="utf-8").splitlines() for _, path in samples()}
    repo = throwaway(tmp_path / "repo", files)
    proc = pre_commit("try-repo", str(ROOT), "chatschema-validate", "--all-files", cwd=repo, home=tmp_path / "home")
    assert proc.returncode == 1, proc.stdout + proc.stderr
    reported = sorted(line for line in proc.stdout.splitlines() if ".jsonl:" in line)
    assert [line.split(":", 2)[:2] for line in reported] == [
        ["bridgic_conversation.jsonl", "5"],
        ["docent_transcript.jsonl", "5"],
        ["letta_code_session.jsonl", "4"],
        ["letta_stream.jsonl", "4"],
        ["swarm_history.jsonl", "4"],
    ]
    assert reported[0].endswith("[bridgic/Message]") and reported[4].endswith("[swarm/ISwarmMessage]")
