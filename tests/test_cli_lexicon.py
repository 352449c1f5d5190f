"""The command line of the lexicon commands: build-lexicon, lexicon-info, check-word."""

import json
import os
import subprocess
import sys

from hypothesis import given
from hypothesis import strategies as st

from tests.conftest import run_cli

run = run_cli


def test_check_word_valid_and_invalid(env_lexicon, capsys):
    code, out, _ = run(capsys, "check-word", "ŻÓŁW", "zażółć")
    assert code == 0
    assert out == "ŻÓŁW\tvalid\nzażółć\tvalid\n"
    code, out, _ = run(capsys, "check-word", "żółw", "quiz", "warszawa", "a")
    assert code == 1
    assert out.splitlines() == [
        "żółw\tvalid",
        "quiz\tinvalid\thas a letter without a tile: q",
        "warszawa\tinvalid\tnot in the word list",
        "a\tinvalid\ttoo short: 1 letter, at least 2",
    ]


def test_check_word_json_quiet_and_invalid_only(env_lexicon, capsys):
    code, out, _ = run(capsys, "check-word", "--json", "Żółw", "x1")
    assert code == 1
    records = [json.loads(line) for line in out.splitlines()]
    assert records[0] == {"word": "Żółw", "normalized": "żółw", "valid": True, "reason": None, "detail": None}
    assert records[1]["valid"] is False and records[1]["reason"] == "digit"
    assert run(capsys, "check-word", "--quiet", "żółw", "kotek") == (1, "", "")
    assert run(capsys, "check-word", "-q", "żółw") == (0, "", "")
    code, out, _ = run(capsys, "check-word", "--invalid-only", "żółw", "kotek")
    assert out == "kotek\tinvalid\tnot in the word list\n"


def test_check_word_file_and_stdin(env_lexicon, capsys, tmp_path, monkeypatch):
    words = tmp_path / "words.txt"
    words.write_text("kot\r\n\r\n  żółw  \nkoty\n", encoding="utf-8")
    code, out, _ = run(capsys, "check-word", "--file", str(words))
    assert code == 1
    assert [line.split("\t")[:2] for line in out.splitlines()] == [
        ["kot", "valid"],
        ["żółw", "valid"],
        ["koty", "invalid"],
    ]
    import io

    monkeypatch.setattr(sys, "stdin", io.StringIO("bąk\nBĄKI\n"))
    assert run(capsys, "check-word", "-")[:2] == (0, "bąk\tvalid\nBĄKI\tvalid\n")


def test_check_word_extensions(env_lexicon, capsys):
    code, out, _ = run(capsys, "check-word", "--extensions", "--json", "kot", "bąk")
    assert code == 0
    records = {r["word"]: r["extensions"] for r in map(json.loads, out.splitlines())}
    assert records["kot"]["back_hooks"] == ["kota"]
    assert records["kot"]["containing"] == ["kota", "kotów"]
    assert records["bąk"]["back_hooks"] == ["bąki"]
    assert records["bąk"]["containing_count"] == 2
    code, out, _ = run(capsys, "check-word", "-e", "kot")
    assert "back hooks:  kota" in out and "in 2 longer words: kota kotów" in out


def test_errors_are_one_line_with_exit_2(capsys, monkeypatch, tmp_path, small_lexicon):
    monkeypatch.delenv("LITERAKI_LEXICON", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "empty"))
    code, out, err = run(capsys, "check-word", "kot")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and "no lexicon found" in err and "literaki build-lexicon" in err

    corrupt = tmp_path / "corrupt.lexicon"
    data = bytearray(small_lexicon.read_bytes())
    data[-20] ^= 0xFF
    corrupt.write_bytes(bytes(data))
    code, _, err = run(capsys, "check-word", "--lexicon", str(corrupt), "kot")
    assert code == 2 and err.startswith("literaki: error: ") and "corrupt" in err and err.count("\n") == 1

    truncated = tmp_path / "truncated.lexicon"
    truncated.write_bytes(small_lexicon.read_bytes()[:200])
    code, _, err = run(capsys, "lexicon-info", "--lexicon", str(truncated))
    assert code == 2 and "truncated" in err

    code, _, err = run(capsys, "check-word", "--lexicon", str(small_lexicon))
    assert code == 2 and "give words" in err
    code, _, err = run(capsys, "check-word", "--lexicon", str(small_lexicon), "--file", str(tmp_path / "nope"))
    assert code == 2 and "nope" in err


def test_lexicon_info(env_lexicon, capsys):
    code, out, _ = run(capsys, "lexicon-info", "--json")
    info = json.loads(out)
    assert code == 0 and info["word_count"] == 20 and info["source"]["kind"] == "sjp-games"
    code, out, _ = run(capsys, "lexicon-info")
    assert "words" in out and "20 (2..8 letters)" in out


def test_build_lexicon_command(capsys, tmp_path, small_list_file, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    out_file = tmp_path / "x.lexicon"
    code, out, _ = run(capsys, "build-lexicon", str(small_list_file), "-o", str(out_file), "--json")
    assert code == 0
    report = json.loads(out)
    assert report["word_count"] == 20 and report["dropped"]["no-tile"] == 4 and out_file.is_file()
    # Without -o it writes the default file, which every command then finds.
    code, out, _ = run(capsys, "build-lexicon", str(small_list_file))
    assert code == 0 and "kept" in out and "letter without a tile" in out
    monkeypatch.delenv("LITERAKI_LEXICON", raising=False)
    assert (tmp_path / "data" / "literaki" / "sjp.lexicon").is_file()
    assert run(capsys, "check-word", "żółw")[0] == 0


def test_build_lexicon_errors(capsys, tmp_path):
    code, _, err = run(capsys, "build-lexicon", str(tmp_path / "missing.zip"), "-o", str(tmp_path / "o"))
    assert code == 2 and "missing.zip: no such file" in err
    code, _, err = run(capsys, "build-lexicon")
    assert code == 2 and "SOURCE" in err
    code, _, err = run(capsys, "build-lexicon", "x", "--variant", "nope")
    assert code == 2 and "unknown variant" in err
    bad_rules = tmp_path / "bad.toml"
    bad_rules.write_text('name = "x"\n[words]\nmin_length = "two"\n')
    code, _, err = run(capsys, "build-lexicon", "x", "--rules", str(bad_rules))
    assert code == 2 and "min_length" in err


def test_usage_error_exit_code(capsys):
    code, _, err = run(capsys, "check-word", "--no-such-option")
    assert code == 2 and "No such option" in err


def test_real_process_stream_and_no_traceback(small_lexicon, tmp_path):
    env = dict(os.environ, LITERAKI_LEXICON=str(small_lexicon))
    proc = subprocess.run(
        [sys.executable, "-m", "literaki_cli", "check-word", "-"],
        input="kot\nkoty\n" * 1000,
        capture_output=True,
        text=True,
        env=env,
    )
    assert proc.returncode == 1
    assert proc.stdout.count("kot\tvalid\n") == 1000 and proc.stdout.count("koty\tinvalid") == 1000
    env["LITERAKI_LEXICON"] = str(tmp_path / "missing.lexicon")
    proc = subprocess.run(
        [sys.executable, "-m", "literaki_cli", "check-word", "kot"], capture_output=True, text=True, env=env
    )
    assert proc.returncode == 2 and "Traceback" not in proc.stderr and proc.stderr.count("\n") == 1


def test_broken_pipe_is_quiet(small_lexicon):
    env = dict(os.environ, LITERAKI_LEXICON=str(small_lexicon))
    proc = subprocess.run(
        f"yes kot | head -200000 | {sys.executable} -m literaki_cli check-word - | head -1",
        shell=True,
        capture_output=True,
        text=True,
        env=env,
    )
    assert proc.stdout == "kot\tvalid\n"
    assert "Traceback" not in proc.stderr and "Error" not in proc.stderr


@given(st.text(), st.text(), st.booleans(), st.text())
def test_fast_json_line_equals_json_dumps(word, normalized, valid, detail):
    from literaki_cli.analysis.wordcheck import Verdict

    verdict = Verdict(word, normalized, valid, None if valid else "not-in-list", None if valid else detail)
    assert verdict.json_line() == json.dumps(verdict.as_dict(), ensure_ascii=False) + "\n"
