"""docs/server.md's reference nginx configuration, run: bench/load.py --servers 2 puts it before two servers.

nginx reads it (`nginx -t`), passes requests to both servers in turn, serves the static folder itself and keeps a
table link's token out of its access log (request line and Referer), as the docs promise."""

import http.client
import http.server
import shutil
import threading
from pathlib import Path

import pytest

from bench._server import Proxy, documented_proxy, proxy_config

DOCS = Path(__file__).resolve().parents[2] / "docs" / "server.md"
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)


def test_the_documented_configuration_is_made_to_run_on_loopback(tmp_path):
    text = proxy_config(documented_proxy(DOCS), port=8123, upstreams=[9001, 9002], static_root=tmp_path / "static",
                        log=tmp_path / "access.log")
    assert "listen 127.0.0.1:8123;" in text
    assert "server 127.0.0.1:9001 max_fails=3" in text and "server 127.0.0.1:9002 max_fails=3" in text
    assert "ssl_certificate" not in text and "listen 80" not in text and "10.0.0.11" not in text
    assert f"alias {tmp_path / 'static'}/;" in text
    # what the docs say a proxy must send stays as documented
    for header in ("proxy_set_header Host $host;", "X-Forwarded-For $proxy_add_x_forwarded_for",
                   "X-Forwarded-Proto $scheme"):
        assert header in text


def test_a_changed_documentation_fails_loudly():
    with pytest.raises(RuntimeError, match="listen 443"):
        proxy_config(documented_proxy(DOCS).replace("listen 443 ssl;", "listen 8443;"), port=1, upstreams=[2],
                     static_root=Path("/tmp"), log=Path("/tmp/x"))


class _Upstream(http.server.BaseHTTPRequestHandler):
    def do_GET(self):  # noqa: N802 (the standard library's name)
        body = f"{self.server.server_port} {self.headers.get('X-Forwarded-Proto')}".encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.mark.skipif(NGINX is None, reason="nginx is not installed (make test-system-packages installs it)")
def test_nginx_runs_it_before_two_servers_and_keeps_tokens_out_of_its_log(tmp_path):
    upstreams = [http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Upstream) for _ in range(2)]
    for upstream in upstreams:
        threading.Thread(target=upstream.serve_forever, daemon=True).start()
    (tmp_path / "static").mkdir()
    (tmp_path / "static" / "app.css").write_text("body{}")
    proxy = Proxy(tmp_path, DOCS)
    try:
        port = proxy.start([u.server_port for u in upstreams], tmp_path / "static")
        answered = []
        paths = ("/t/SECRETtoken123/", "/t/SECRETtoken123/?x=1", "/p/x/", "/p/y/", "/p/cup/me/PERSONALtoken45/live/")
        for path in paths:
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            referer = "http://hall/p/cup/me/PERSONALtoken45/" if "PERSONAL" in path else "http://hall/t/SECRETtoken123/"
            connection.request("GET", path, headers={"Referer": referer})
            answer = connection.getresponse()
            assert answer.status == 200
            answered.append(answer.read().decode().split())
            connection.close()
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        connection.request("GET", "/static/app.css")
        assert connection.getresponse().read() == b"body{}"  # the proxy serves the shared static folder itself
        proxy.stop()
        assert {int(port_) for port_, _proto in answered} == {u.server_port for u in upstreams}  # both served
        assert {proto for _port, proto in answered} == {"http"}  # X-Forwarded-Proto reaches the server
        log = (tmp_path / "nginx" / "access.log").read_text()
        assert "SECRETtoken123" not in log and "PERSONALtoken45" not in log
        # the two /t/ request lines and the Referer of each of the four requests
        assert log.count("/t/REDACTED/") == 6 and "/t/REDACTED/?x=1" in log
        # a personal page's poll: its request line and its Referer
        assert "/p/cup/me/REDACTED/live/" in log and "http://hall/p/cup/me/REDACTED/" in log
        # the start-up probe, the five requests, the static file (served by nginx itself: no upstream)
        assert sum(proxy.spread().values()) == 7 and proxy.spread()["-"] == 1
    finally:
        proxy.stop()
        for upstream in upstreams:
            upstream.shutdown()
