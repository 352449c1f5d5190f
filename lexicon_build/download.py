"""``build-lexicon --download``: fetch the current SJP.PL games dump.

The index page (https://sjp.pl/sl/growy/) links the one current ``sjp-YYYYMMDD.zip``; the
newest link found is downloaded.  A mirror is chosen with ``--url`` or ``$LITERAKI_SJP_URL``:
either an index page or a zip file's own address.  The download is checked (HTTP status, a
zip file, a ``slowa.txt`` or ``slowa-win.txt`` inside) and written atomically.
"""

from __future__ import annotations

import io
import os
import re
import tempfile
import urllib.error
import urllib.request
import zipfile
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urljoin, urlparse

from literaki_cli import __version__
from literaki_cli.errors import InputError

DEFAULT_INDEX_URL = "https://sjp.pl/sl/growy/"
URL_ENV_VAR = "LITERAKI_SJP_URL"
_DUMP_LINK = re.compile(r"""href\s*=\s*["']?([^"'\s>]*?sjp-(\d{8})\.zip)""", re.IGNORECASE)
_TIMEOUT = 60
_CHUNK = 1 << 16


class DownloadError(InputError):
    """The dump could not be fetched or is not a games dump."""


def _open(url: str):
    request = urllib.request.Request(url, headers={"User-Agent": f"literaki/{__version__}"})
    try:
        return urllib.request.urlopen(request, timeout=_TIMEOUT)
    except urllib.error.HTTPError as exc:
        raise DownloadError(f"download failed: HTTP {exc.code} {exc.reason} for {url}") from None
    except urllib.error.URLError as exc:
        raise DownloadError(f"cannot reach {url}: {exc.reason}") from None
    except (TimeoutError, OSError) as exc:
        raise DownloadError(f"cannot reach {url}: {exc}") from None
    except ValueError as exc:
        raise DownloadError(f"bad URL {url!r}: {exc}") from None


def newest_dump_link(index_html: str, index_url: str) -> str:
    """Absolute address of the newest ``sjp-YYYYMMDD.zip`` linked from an index page."""
    links = [(date, href) for href, date in _DUMP_LINK.findall(index_html)]
    if not links:
        raise DownloadError(f"no sjp-YYYYMMDD.zip link found on {index_url}")
    _, href = max(links)
    return urljoin(index_url, href)


def check_dump(data: bytes, url: str) -> str:
    """The name of the word-list member of a downloaded dump; raises if it is no games dump."""
    if not data.startswith(b"PK"):
        raise DownloadError(f"{url}: the download is not a zip file")
    try:
        names = zipfile.ZipFile(io.BytesIO(data)).namelist()
    except zipfile.BadZipFile as exc:
        raise DownloadError(f"{url}: damaged zip file ({exc})") from None
    for name in names:
        if name.rsplit("/", 1)[-1].lower() in ("slowa.txt", "slowa-win.txt"):
            return name
    raise DownloadError(f"{url}: the zip holds no slowa.txt ({', '.join(names) or 'it is empty'})")


def _read_with_progress(response, on_progress: Callable[[int, int | None], None] | None, head: bytes = b"") -> bytes:
    """The whole body; ``head`` is what was already read of it."""
    total = response.headers.get("Content-Length")
    total = int(total) if total and total.isdigit() else None
    chunks = [head]
    if on_progress and head:
        on_progress(len(head), total)
    while True:
        chunk = response.read(_CHUNK)
        if not chunk:
            break
        chunks.append(chunk)
        if on_progress:
            on_progress(len(chunk), total)
    data = b"".join(chunks)
    if total is not None and len(data) != total:
        raise DownloadError(f"download cut short: {len(data)} of {total} bytes")
    return data


def download_dump(
    dest_dir: Path,
    url: str | None = None,
    on_progress: Callable[[int, int | None], None] | None = None,
) -> Path:
    """Download the current games dump into ``dest_dir``; returns the saved zip's path.

    ``url`` (else ``$LITERAKI_SJP_URL``, else the SJP.PL index) may name an index page or a
    zip file.  ``on_progress(bytes_now, total_or_None)`` is called as the zip arrives.
    """
    url = url or os.environ.get(URL_ENV_VAR) or DEFAULT_INDEX_URL
    with _open(url) as response:
        final_url = response.geturl()
        head = response.read(4)
        # A zip by its content or by its address (then check_dump says what is wrong with it).
        if head.startswith(b"PK") or urlparse(final_url).path.lower().endswith(".zip"):
            data = _read_with_progress(response, on_progress, head)
            zip_url = final_url
        else:
            page = (head + response.read()).decode("utf-8", errors="replace")
            zip_url = newest_dump_link(page, final_url)
            data = b""
    if not data:
        with _open(zip_url) as response:
            data = _read_with_progress(response, on_progress)
    check_dump(data, zip_url)
    name = zip_url.rstrip("/").rsplit("/", 1)[-1]
    if not re.fullmatch(r"[\w.-]+\.zip", name):
        name = "sjp-download.zip"
    dest_dir = Path(dest_dir)
    dest_dir.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=name + ".", suffix=".part", dir=dest_dir)
    try:
        with os.fdopen(fd, "wb") as out:
            out.write(data)
        os.replace(tmp, dest_dir / name)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return dest_dir / name
