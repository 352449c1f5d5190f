"""Integration tests on the real SJP games dump (skipped where ../shared is absent)."""

import subprocess
import sys
import zipfile

import pytest

from literaki_cli.engine.lexicon import Lexicon
from tests.conftest import SJP_WORD_COUNT

pytestmark = pytest.mark.sjp

TWO_LETTER = """aa ad ag aj al am ar as at au aż ba be bi bo bu by ce ci co da de do dy ee ef eh ej el eł em en
eń eo er es eś et ew ez fa fe fi fu gę gi go gu ha he hę hi hm ho hu id ii il ił im in iw iż ja
ją je ka ki ko ku la li lu ma mą me mi mm mu my na ni no nu ny od oh oj ok om on oń oo op or os
oś ot oz oż ód ós ów pa pe pi po re ro są se si su ta tą te tę to ts tu ty ud uf ul ut uu we wu
wy yh yy za ze że""".split()
PER_LENGTH = {
    2: 134,
    3: 1626,
    4: 8230,
    5: 28659,
    6: 65199,
    7: 129991,
    8: 216212,
    9: 312486,
    10: 395844,
    11: 449188,
    12: 464444,
    13: 444834,
    14: 398980,
    15: 333556,
}


@pytest.fixture(scope="module")
def raw_words(sjp_zip):
    return zipfile.ZipFile(sjp_zip).read("slowa.txt").decode("utf-8").split()


def test_dump_facts(raw_words):
    assert len(raw_words) == SJP_WORD_COUNT
    from collections import Counter

    assert dict(Counter(map(len, raw_words))) == PER_LENGTH


def test_word_count_is_the_dump_minus_qvx_words(sjp_lexicon, raw_words):
    qvx = [w for w in raw_words if set(w) & set("qvx")]
    assert 700 < len(qvx) < 900
    assert sjp_lexicon.word_count == SJP_WORD_COUNT - len(qvx)
    assert sjp_lexicon.meta["dropped"] == {"no-tile": len(qvx)}
    for length, count in PER_LENGTH.items():
        assert sjp_lexicon.meta["length_counts"][str(length)] == count - sum(len(w) == length for w in qvx)


def test_the_134_two_letter_words(sjp_lexicon):
    assert len(TWO_LETTER) == 134
    assert sjp_lexicon.words.lookup(TWO_LETTER).all()
    two = [w for w in sjp_lexicon.words.text().splitlines() if len(w) == 2]
    assert sorted(two) == sorted(TWO_LETTER)


def test_valid_and_invalid_examples(sjp_lexicon):
    for word in ["źdźbło", "gęślą", "jaźń", "zażółcić", "zażółć", "pchnąć"]:
        assert word in sjp_lexicon
    for word in ["warszawa", "quiz", "veto", "taxi", "xero", "box", "foxtrot"]:
        assert word not in sjp_lexicon


def test_every_word_enumerates_back(sjp_lexicon, raw_words):
    kept = [w for w in raw_words if not set(w) & set("qvx")]
    assert sjp_lexicon.words.text().splitlines() == kept  # the dump is in Polish order already


def test_popular_subset(sjp_lexicon):
    popular = sjp_lexicon.popular
    assert 300_000 < popular.count < 800_000  # every form of about 29,000 lemmas
    words = popular.text().splitlines()
    assert len(words) == popular.count
    assert sjp_lexicon.words.lookup(words).all()
    assert {"dom", "kot", "woda", "dobry"} <= set(words)


@pytest.mark.slow
def test_cp1250_crlf_dump_gives_the_same_lexicon(sjp_zip, sjp_lexicon, tmp_path, variant):
    from lexicon_build.build import build_lexicon

    """An old dump (cp1250, CRLF, slowa-win.txt) and today's (UTF-8, LF) of the same words give
    the same file.  Every 8th line of the real dump: every letter and every kind of line is there,
    and the two builds take 15 s instead of a minute."""
    lines = zipfile.ZipFile(sjp_zip).read("slowa.txt").decode("utf-8").splitlines()[::8]
    assert len(lines) > 400_000 and {"ą", "ę", "ł", "ń", "ó", "ś", "ź", "ż"} <= set("".join(lines))
    today, old = tmp_path / "sjp-20260201.zip", tmp_path / "sjp-20140101.zip"
    with zipfile.ZipFile(today, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("slowa.txt", "\n".join(lines).encode("utf-8") + b"\n")
    with zipfile.ZipFile(old, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("slowa-win.txt", "\r\n".join(lines).encode("cp1250") + b"\r\n")
    report = build_lexicon(old, tmp_path / "old.lexicon", variant)
    assert report.meta["source"]["encoding"] == "cp1250"
    expected = Lexicon.open(build_lexicon(today, tmp_path / "today.lexicon", variant).output)
    rebuilt = Lexicon.open(report.output)
    assert rebuilt.word_count == expected.word_count > 0.12 * sjp_lexicon.word_count
    assert (rebuilt.arcs == expected.arcs).all()


def test_file_size_and_cli(sjp_build):
    assert sjp_build.file_size < 40_000_000  # with the GADDAG (12 MB without)
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "literaki_cli",
            "check-word",
            "--lexicon",
            str(sjp_build.output),
            "ŻÓŁW",
            "źdźbło",
            "quiz",
        ],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 1
    assert proc.stdout.splitlines()[:2] == ["ŻÓŁW\tvalid", "źdźbło\tvalid"]


def test_corrupt_real_lexicon_fails_cleanly(sjp_build, tmp_path):
    data = bytearray(sjp_build.output.read_bytes())
    data[len(data) // 2] ^= 0x10
    bad = tmp_path / "bad.lexicon"
    bad.write_bytes(bytes(data))
    proc = subprocess.run(
        [sys.executable, "-m", "literaki_cli", "check-word", "--lexicon", str(bad), "kot"],
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 2 and "corrupt" in proc.stderr and "Traceback" not in proc.stderr


def test_extensions_on_the_real_lexicon(sjp_lexicon):
    from literaki_cli.analysis.wordcheck import find_extensions

    found = find_extensions(["żółw", "jaźń"], sjp_lexicon.words.text())
    assert found["żółw"].back_hooks == ["żółwi"]
    assert "żółwia" in found["żółw"].containing and "nieżółwi" in found["żółw"].containing
    assert all("żółw" in w and w != "żółw" for w in found["żółw"].containing)
