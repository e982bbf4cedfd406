"""A pytest plugin for scripts/upstream-tests.sh: boaviztapi's API tests talk to its app in process
through httpx's ASGITransport; this plugin replaces that transport, before the tests are imported,
by one sending each request over HTTP to the service at IMPACT_SERVICE_URL, with
edition=IMPACT_SERVICE_EDITION added to its query string."""
import os

import httpx

SERVICE = os.environ["IMPACT_SERVICE_URL"].rstrip("/")
EDITION = os.environ["IMPACT_SERVICE_EDITION"]


class ToService(httpx.AsyncBaseTransport):
    def __init__(self, *args, **kwargs):
        self._inner = httpx.AsyncHTTPTransport()

    async def handle_async_request(self, request):
        path = request.url.raw_path.decode("ascii")
        separator = "&" if "?" in path else "?"
        target = httpx.URL(f"{SERVICE}{path}{separator}edition={EDITION}")
        forwarded = httpx.Request(request.method, target, headers=request.headers, content=request.content)
        forwarded.headers["host"] = target.netloc.decode("ascii")
        return await self._inner.handle_async_request(forwarded)

    async def aclose(self):
        await self._inner.aclose()


httpx.ASGITransport = ToService
