"""Sources are recognised from their content: containers, encodings, line endings, kinds."""

import gzip
import io
import tarfile
import zipfile

import pytest

from lexicon_build.sources import detect_encoding, read_source
from literaki_cli.errors import InputError

WORDS = ["ąb", "źdźbło", "gęślą", "jaźń", "żółw", "ŚWIT", "Źródło", "ćma"]
TEXT = "\r\n".join(WORDS) + "\r\n"


@pytest.mark.parametrize("encoding", ["utf-8", "cp1250", "iso-8859-2"])
def test_encodings_are_detected(tmp_path, encoding):
    path = tmp_path / "list.txt"
    path.write_bytes(TEXT.encode(encoding))
    source = read_source(path)
    assert source.encoding == encoding
    assert [e for e in source.entries if e] == WORDS


def test_detect_encoding_prefers_cp1250_on_its_letters():
    assert detect_encoding("ąśź".encode("cp1250")) == "cp1250"
    assert detect_encoding("ąśź".encode("iso-8859-2")) == "iso-8859-2"
    assert detect_encoding("ąśź".encode()) == "utf-8"
    assert detect_encoding(b"\xef\xbb\xbfab") == "utf-8-sig"


def test_crlf_lf_and_cr_give_the_same_entries(tmp_path):
    results = []
    for newline in ("\r\n", "\n", "\r"):
        path = tmp_path / "l.txt"
        path.write_bytes(newline.join(WORDS).encode())
        results.append([e for e in read_source(path).entries if e])
    assert results[0] == results[1] == results[2] == WORDS


def test_games_zip_with_slowa_txt(tmp_path):
    path = tmp_path / "sjp-20990101.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("README.txt", "licence")
        zf.writestr("slowa.txt", "aa\r\nżółw\r\n")
    source = read_source(path)
    assert (source.kind, source.member, source.encoding) == ("sjp-games", "slowa.txt", "utf-8")
    assert source.name == "sjp-20990101.zip:slowa.txt"
    assert source.entries[:2] == ["aa", "żółw"]


def test_old_games_zip_with_slowa_win_txt(tmp_path):
    path = tmp_path / "sjp-20140101.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("slowa-win.txt", "aa\r\nżółw\r\nźdźbło\r\n".encode("cp1250"))
    source = read_source(path)
    assert (source.kind, source.encoding) == ("sjp-games", "cp1250")
    assert source.entries[:3] == ["aa", "żółw", "źdźbło"]


def test_gzip_and_tar_gz(tmp_path):
    gz = tmp_path / "words.txt.gz"
    gz.write_bytes(gzip.compress("kot\nżółw\nśląsk\n".encode("iso-8859-2")))
    assert [e for e in read_source(gz).entries if e] == ["kot", "żółw", "śląsk"]

    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tf:
        data = "kot\nśląsk\n".encode("iso-8859-2")
        info = tarfile.TarInfo("sjp-20110101/slowa.txt")
        info.size = len(data)
        tf.addfile(info, io.BytesIO(data))
    tgz = tmp_path / "sjp-20110101.tar.gz"
    tgz.write_bytes(buf.getvalue())
    source = read_source(tgz)
    assert (source.kind, source.encoding, source.member) == ("sjp-games", "iso-8859-2", "sjp-20110101/slowa.txt")
    assert source.entries[:2] == ["kot", "śląsk"]


def test_inflections_file_is_split_into_forms(tmp_path):
    path = tmp_path / "odm.txt"
    path.write_bytes(b"abak, abaka, abakach\r\nAachen\r\nab urbe condita\r\nAAN\r\n")
    source = read_source(path)
    assert source.kind == "sjp-inflections"
    assert source.entries[:6] == ["abak", "abaka", "abakach", "Aachen", "ab urbe condita", "AAN"]


def test_inflections_detected_by_content(tmp_path):
    path = tmp_path / "lexemes.txt"
    path.write_text("abak, abaka\nkot, kota, kotem\n", encoding="utf-8")
    assert read_source(path).kind == "sjp-inflections"


def test_spelling_dictionary_and_plain_list(tmp_path):
    spelling = tmp_path / "polish"
    spelling.write_text("Aachen\nabak\nkg\n", encoding="utf-8")
    assert read_source(spelling).kind == "spelling-dictionary"
    plain = tmp_path / "mine.txt"
    plain.write_text("abak\nkot\n", encoding="utf-8")
    assert read_source(plain).kind == "word-list"
    assert read_source(plain, kind="spelling-dictionary").kind == "spelling-dictionary"


@pytest.mark.parametrize(
    "content, message",
    [
        (b"PK\x03\x04garbage", "damaged zip"),
        (b"\x1f\x8bgarbage", "damaged gzip"),
        (b"\x00\x01\x02binary", "binary data"),
    ],
)
def test_bad_files_give_clear_errors(tmp_path, content, message):
    path = tmp_path / "bad.zip"
    path.write_bytes(content)
    with pytest.raises(InputError, match=message):
        read_source(path)


def test_zip_without_a_word_list(tmp_path):
    path = tmp_path / "other.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("README.txt", "x")
        zf.writestr("a.csv", "x")
    with pytest.raises(InputError, match="holds no slowa.txt.*README.txt"):
        read_source(path)


def test_missing_file_and_unknown_kind(tmp_path):
    with pytest.raises(InputError, match="no such file"):
        read_source(tmp_path / "nope.txt")
    path = tmp_path / "l.txt"
    path.write_text("kot\n")
    with pytest.raises(InputError, match="unknown source kind"):
        read_source(path, kind="bogus")


def test_a_list_mixing_utf8_and_cp1250_lines_keeps_every_word(tmp_path, variant):
    from lexicon_build.build import build_lexicon
    from literaki_cli.engine.lexicon import Lexicon

    path = tmp_path / "mixed.txt"
    path.write_bytes("kot\r\nżółw\r\n".encode() + "źdźbło\r\nwiężą\r\n".encode("cp1250") + "zażółć\r\n".encode())
    source = read_source(path)
    assert [e for e in source.entries if e] == ["kot", "żółw", "źdźbło", "więżą", "zażółć"]
    assert source.encoding == "utf-8+cp1250 (per line)"
    report = build_lexicon(path, tmp_path / "mixed.lexicon", variant)
    assert report.dropped == {}
    assert set(Lexicon.open(report.output).words) == {"kot", "żółw", "źdźbło", "więżą", "zażółć"}
