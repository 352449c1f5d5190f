"""--download against a small HTTP server on 127.0.0.1 started by the test."""

import http.server
import io
import threading
import zipfile

import pytest

from lexicon_build.download import DownloadError, download_dump, newest_dump_link
from literaki_cli.cli import main


def make_zip(members: dict[str, bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return buf.getvalue()


GOOD_ZIP = make_zip({"slowa.txt": "aa\r\nkot\r\nżółw\r\nquiz\r\n".encode(), "README.txt": b"GPL 2 / CC BY 4.0"})
OLD_ZIP = make_zip({"slowa.txt": b"aa\r\n"})
INDEX = """<html><body>
<a href="sjp-20250101.zip">sjp-20250101.zip</a>
<a href='/sl/growy/sjp-20260201.zip'>sjp-20260201.zip</a>
<a href="other.zip">other</a>
</body></html>"""
PAGES = {
    "/sl/growy/": (200, "text/html", INDEX.encode()),
    "/sl/growy/sjp-20260201.zip": (200, "application/zip", GOOD_ZIP),
    "/sl/growy/sjp-20250101.zip": (200, "application/zip", OLD_ZIP),
    "/noindex/": (200, "text/html", b"<html>nothing here</html>"),
    "/notzip.zip": (200, "application/zip", b"<html>oops</html>"),
    "/nowords.zip": (200, "application/zip", make_zip({"README.txt": b"x"})),
    "/short.zip": (200, "application/zip", GOOD_ZIP),
}


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        status, ctype, body = PAGES.get(self.path, (404, "text/plain", b"not found"))
        self.send_response(status)
        self.send_header("Content-Type", ctype)
        # /short.zip promises more bytes than it sends.
        self.send_header("Content-Length", str(len(body) + (100 if self.path == "/short.zip" else 0)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def server():
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}"
    httpd.shutdown()
    httpd.server_close()


def test_newest_link_is_chosen():
    assert newest_dump_link(INDEX, "https://sjp.pl/sl/growy/") == "https://sjp.pl/sl/growy/sjp-20260201.zip"


def test_download_from_index_page(server, tmp_path):
    seen = []
    path = download_dump(tmp_path, f"{server}/sl/growy/", lambda n, total: seen.append((n, total)))
    assert path.name == "sjp-20260201.zip" and path.read_bytes() == GOOD_ZIP
    assert sum(n for n, _ in seen) == len(GOOD_ZIP) and seen[-1][1] == len(GOOD_ZIP)
    assert [p.name for p in tmp_path.iterdir()] == ["sjp-20260201.zip"]


def test_download_of_a_zip_address_and_env_override(server, tmp_path, monkeypatch):
    monkeypatch.setenv("LITERAKI_SJP_URL", f"{server}/sl/growy/sjp-20250101.zip")
    assert download_dump(tmp_path).read_bytes() == OLD_ZIP


@pytest.mark.parametrize(
    "path, message",
    [
        ("/missing/", "HTTP 404"),
        ("/noindex/", "no sjp-YYYYMMDD.zip link"),
        ("/notzip.zip", "not a zip file"),
        ("/nowords.zip", "holds no slowa.txt"),
        ("/short.zip", "cut short"),
    ],
)
def test_download_errors(server, tmp_path, path, message):
    with pytest.raises(DownloadError, match=message):
        download_dump(tmp_path, server + path)
    assert list(tmp_path.iterdir()) == []


def test_unreachable_host(tmp_path):
    with pytest.raises(DownloadError, match="cannot reach"):
        download_dump(tmp_path, "http://127.0.0.1:9/")


def test_build_lexicon_download_command(server, tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    out = tmp_path / "dl.lexicon"
    code = main(["build-lexicon", "--download", "--url", f"{server}/sl/growy/", "-o", str(out), "--json"])
    assert code == 0
    assert (tmp_path / "downloads" / "sjp-20260201.zip").is_file()
    assert main(["check-word", "--lexicon", str(out), "żółw", "kot"]) == 0
    code = main(["build-lexicon", "--download", "--url", f"{server}/notzip.zip", "-o", str(out)])
    assert code == 2 and "not a zip" in capsys.readouterr().err
